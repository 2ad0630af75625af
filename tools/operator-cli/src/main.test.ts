import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { capture, copyFixture, emptyDirectory, removeCopies } from '../test/fixture-operator.js';
import { main, operatorVerbs, usage, verbs } from './main.js';

afterAll(removeCopies);

describe('help', () => {
  it('lists the kubebuilder verbs, and shows a verb help with its usage line', async () => {
    expect(verbs.map((verb) => verb.name)).toEqual([
      'init',
      'create',
      'new',
      'manifests',
      'install-crds',
      'uninstall-crds',
      'run',
      'webhook-local',
      'webhook-certs',
      'deploy',
      'undeploy',
      'build-installer',
      'helm',
      'docker-build',
      'docker-push',
      'docker-buildx',
    ]);
    expect(operatorVerbs.map((verb) => verb.name)).toEqual(
      verbs.map((verb) => verb.name).filter((name) => !['init', 'create', 'new'].includes(name)),
    );
    const top = capture();
    expect(await main(['--help'], top.io)).toBe(0);
    expect(top.output.stdout).toBe(`${usage}\n`);
    for (const verb of verbs) {
      expect(top.output.stdout).toContain(`  ${verb.name.padEnd(16)} ${verb.summary}\n`);
      const one = capture();
      // No operator directory is needed for help.
      expect(await main([verb.name, '--help'], { cwd: emptyDirectory(), ...one.io })).toBe(0);
      expect(one.output.stdout).toBe(`${verb.help}\n`);
      expect(verb.help).toMatch(new RegExp(`^Usage: .*ops-operator ${verb.name}`));
    }
  });

  it('prints the usage on stderr and fails without a verb, or with an unknown one', async () => {
    const none = capture();
    expect(await main([], none.io)).toBe(1);
    expect(none.output.stderr).toBe(`${usage}\n`);
    const unknown = capture();
    expect(await main(['install'], unknown.io)).toBe(1);
    expect(unknown.output.stderr).toBe(`ops-operator: unknown verb "install"\n\n${usage}\n`);
  });
});

describe('arguments', () => {
  it('refuses an unknown option with the verb help', async () => {
    const { output, io } = capture();
    expect(await main(['deploy', '--without-certmanager'], { cwd: copyFixture(), ...io })).toBe(1);
    expect(output.stderr).toContain(
      "ops-operator deploy: deploy: Unknown option '--without-certmanager'",
    );
    expect(output.stderr).toContain('Usage: [IMG=<image>] ops-operator deploy');
  });

  it('ignores the -- that pnpm run <script> -- <args> passes on', async () => {
    const { output, io } = capture();
    expect(await main(['deploy', '--', '--bogus'], { cwd: copyFixture(), ...io })).toBe(1);
    expect(output.stderr).toContain("ops-operator deploy: deploy: Unknown option '--bogus'");
  });

  it('checks --port and says what --host-ip is for', async () => {
    const root = copyFixture();
    const noHost = capture();
    expect(await main(['webhook-local'], { cwd: root, ...noHost.io })).toBe(1);
    expect(noHost.output.stderr).toContain(
      'ops-operator webhook-local: webhook-local: --host-ip is missing\nUsage: ops-operator webhook-local --host-ip <ip of this machine reachable from the API server>',
    );
    const badPort = capture();
    expect(
      await main(['webhook-local', '--host-ip', '192.0.2.1', '--port', '99999'], {
        cwd: root,
        ...badPort.io,
      }),
    ).toBe(1);
    expect(badPort.output.stderr).toBe(
      'ops-operator webhook-local: --port must be a TCP port (1-65535), got "99999"\n',
    );
  });

  it('passes run arguments after -- to the operator, --help included', async () => {
    const { output, io } = capture();
    // The fixture is not built: run gets as far as looking for dist/main.js.
    const root = copyFixture();
    expect(await main(['run', '--', '--help'], { cwd: root, ...io })).toBe(1);
    expect(output.stderr).toBe(
      `ops-operator run: ${root}/dist/main.js does not exist: build the operator first (ops-operator manifests, or its build script).\n`,
    );
  });
});

describe('the operator directory', () => {
  it('is found from the current directory, or taken from --dir', async () => {
    const root = copyFixture();
    const elsewhere = emptyDirectory();
    const failed = capture();
    expect(await main(['uninstall-crds'], { cwd: elsewhere, ...failed.io })).toBe(1);
    expect(failed.output.stderr).toBe(
      `ops-operator uninstall-crds: ${elsewhere} is not in an operator directory (none of it or its parents has package.json and config/default/kustomization.yaml). Run ops-operator from the operator's directory (e.g. cd operators/application-operator), through its package.json scripts (pnpm run deploy), or pass --dir <operator directory>.\n`,
    );
    const noWebhooks = capture();
    // --dir finds the operator; webhook-certs then goes as far as running kubectl.
    const status = await main(['--dir', root, 'webhook-certs'], {
      cwd: elsewhere,
      env: { ...process.env, KUBECTL: '/nonexistent/kubectl' },
      ...noWebhooks.io,
    });
    expect(status).toBe(1);
    expect(noWebhooks.output.stderr).toBe(
      'ops-operator webhook-certs: kubectl not found: "/nonexistent/kubectl" is not on PATH. Install kubectl (https://kubernetes.io/docs/tasks/tools/) or set KUBECTL to its path.\n',
    );
    const noCluster = capture();
    const kubeconfig = join(elsewhere, 'kubeconfig');
    writeFileSync(
      kubeconfig,
      'apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "http://127.0.0.1:9"}}]\ncontexts: [{name: c, context: {cluster: c}}]\ncurrent-context: c\n',
    );
    expect(
      await main(['install-crds'], {
        cwd: root,
        env: { ...process.env, KUBECONFIG: kubeconfig },
        ...noCluster.io,
      }),
    ).toBe(1);
    expect(noCluster.output.stderr).toContain(
      `ops-operator install-crds: no cluster answers at the current kubeconfig (KUBECONFIG=${kubeconfig}): start one (kind create cluster, or pnpm local-cluster in the ops repository) or point KUBECONFIG at one, then run this again.\n`,
    );
    const equals = capture();
    expect(await main([`--dir=${root}`, 'run'], { cwd: elsewhere, ...equals.io })).toBe(1);
    expect(equals.output.stderr).toContain(`${root}/dist/main.js does not exist`);
    const missingDir = capture();
    expect(await main(['--dir'], missingDir.io)).toBe(1);
    expect(missingDir.output.stderr).toContain('ops-operator: --dir needs a directory');
  });
});
