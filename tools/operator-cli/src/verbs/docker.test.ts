import { chmodSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capture, copyFixture, emptyDirectory, removeCopies } from '../../test/fixture-operator.js';
import { main } from '../main.js';
import { readOperatorProject } from '../operator-project.js';
import { builderName, dockerBuild, dockerBuildx, dockerPush } from './docker.js';

afterAll(removeCopies);

let tools: string;
let log: string;
beforeAll(() => {
  tools = emptyDirectory();
  log = join(tools, 'calls.log');
  // Stand-ins for a docker CLI that record their calls: one that works, one without the
  // builder yet (buildx inspect fails), one whose daemon is down.
  const fake = (name: string, body: string) => {
    writeFileSync(join(tools, name), `#!/bin/sh\necho "$*" >> "${log}"\n${body}\n`);
    chmodSync(join(tools, name), 0o755);
  };
  fake('docker-ok', 'exit 0');
  fake(
    'docker-no-builder',
    'if [ "$1 $2" = "buildx inspect" ]; then echo "no builder" >&2; exit 1; fi; exit 0',
  );
  fake('docker-no-daemon', 'if [ "$1" = info ]; then echo "Cannot connect" >&2; exit 1; fi');
});

const calls = () => readFileSync(log, 'utf8').trim().split('\n');
const env = (tool: string, extra: NodeJS.ProcessEnv = {}) => ({
  ...process.env,
  IMG: '',
  CONTAINER_TOOL: join(tools, tool),
  ...extra,
});

describe('docker-push', () => {
  it('pushes IMG, else <name>:latest, after checking the daemon; fails with what to do when it is down', async () => {
    const project = readOperatorProject(copyFixture());
    writeFileSync(log, '');
    expect(await dockerPush(project, { env: env('docker-ok') })).toBe('sample-operator:latest');
    expect(calls()).toEqual([
      '--version',
      'info --format {{.ServerVersion}}',
      'push sample-operator:latest',
    ]);
    const root = copyFixture();
    const ok = capture();
    expect(
      await main(['docker-push'], {
        cwd: root,
        env: env('docker-ok', { IMG: 'reg/sample:2' }),
        ...ok.io,
      }),
    ).toBe(0);
    expect(ok.output.stdout).toBe('pushed reg/sample:2\n');
    const down = capture();
    expect(
      await main(['docker-push'], { cwd: root, env: env('docker-no-daemon'), ...down.io }),
    ).toBe(1);
    expect(down.output.stderr).toContain('cannot reach its daemon; start Docker');
  });
});

describe('docker-build', () => {
  it('builds <operator>/Dockerfile into <name>:latest with the operator as context outside a workspace', async () => {
    const project = readOperatorProject(copyFixture());
    writeFileSync(log, '');
    expect(await dockerBuild(project, { env: env('docker-ok') })).toBe('sample-operator:latest');
    expect(calls()).toEqual([
      '--version',
      'info --format {{.ServerVersion}}',
      `build --tag sample-operator:latest --file ${join(project.root, 'Dockerfile')} ${project.root}`,
    ]);
  });

  it('builds a workspace operator without a Dockerfile of its own from the shared operators/Dockerfile, its directory as OPERATOR', async () => {
    const root = copyFixture({ workspace: true });
    const workspace = dirname(dirname(root));
    rmSync(join(root, 'Dockerfile'));
    writeFileSync(join(workspace, 'operators', 'Dockerfile'), 'FROM scratch\n');
    writeFileSync(log, '');
    const ok = capture();
    expect(
      await main(['docker-build'], {
        cwd: root,
        env: env('docker-ok', { IMG: 'reg/s:1' }),
        ...ok.io,
      }),
    ).toBe(0);
    expect(ok.output.stdout).toBe('built reg/s:1 from operators/Dockerfile\n');
    expect(
      await dockerBuildx(readOperatorProject(root), {
        env: env('docker-ok', { IMG: 'reg/s:1', PLATFORMS: 'linux/amd64' }),
      }),
    ).toBe('reg/s:1');
    const shared = join(workspace, 'operators', 'Dockerfile');
    expect(calls().filter((call) => /^(buildx )?build --/.test(call))).toEqual([
      `build --tag reg/s:1 --file ${shared} --build-arg OPERATOR=sample-operator ${workspace}`,
      `buildx build --builder sample-operator-builder --platform linux/amd64 --tag reg/s:1 --push --file ${shared} --build-arg OPERATOR=sample-operator ${workspace}`,
    ]);
  });

  it('reports through the CLI, and fails there with what to do when the daemon is down', async () => {
    const root = copyFixture({ workspace: true });
    const ok = capture();
    const status = await main(['docker-build'], {
      cwd: root,
      env: env('docker-ok', { IMG: 'reg/sample:2' }),
      ...ok.io,
    });
    expect(status).toBe(0);
    expect(ok.output.stdout).toBe('built reg/sample:2 from operators/sample-operator/Dockerfile\n');
    const down = capture();
    expect(
      await main(['docker-build'], { cwd: root, env: env('docker-no-daemon'), ...down.io }),
    ).toBe(1);
    expect(down.output.stderr).toContain(
      `ops-operator docker-build: ${join(tools, 'docker-no-daemon')} is installed but cannot reach its daemon; start Docker`,
    );
    expect(down.output.stderr).toContain('Cannot connect');
  });
});

describe('docker-buildx', () => {
  it('needs IMG, an image it can push to, before it runs anything', async () => {
    writeFileSync(log, '');
    const { output, io } = capture();
    expect(
      await main(['docker-buildx'], { cwd: copyFixture(), env: env('docker-ok'), ...io }),
    ).toBe(1);
    expect(output.stderr).toBe(
      'ops-operator docker-buildx: docker-buildx pushes the image, so it needs one you can push to: set IMG, e.g. IMG=ghcr.io/<you>/sample-operator:1.2.3\n',
    );
    expect(readFileSync(log, 'utf8')).toBe('');
  });

  it('creates the operator builder when missing, and builds PLATFORMS and pushes', async () => {
    const project = readOperatorProject(copyFixture());
    writeFileSync(log, '');
    const image = await dockerBuildx(project, {
      env: env('docker-no-builder', { IMG: 'reg/sample:3', PLATFORMS: 'linux/arm64' }),
    });
    expect(image).toBe('reg/sample:3');
    expect(builderName(project)).toBe('sample-operator-builder');
    expect(calls()).toEqual([
      '--version',
      'info --format {{.ServerVersion}}',
      'buildx version',
      'buildx inspect sample-operator-builder',
      'buildx create --name sample-operator-builder --driver docker-container',
      `buildx build --builder sample-operator-builder --platform linux/arm64 --tag reg/sample:3 --push --file ${join(project.root, 'Dockerfile')} ${project.root}`,
    ]);
  });
});
