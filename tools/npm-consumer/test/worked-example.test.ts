// @ops/core's worked example, run as a user would run it: every public package packed with
// `pnpm pack-all`, a fresh project outside the workspace, the README's files written and its
// commands run there with npm (`npm install` of the tarballs instead of the registry), type
// checked with `strict` and without `skipLibCheck`, the CRD and RBAC rendered with
// ops-manifests, the example's vitest test run against the local API server, then the
// operator started with `npm start` against a local API server (`local-cluster`) and a
// sample Widget reconciled. A command ending in `&` runs in the background, as in a terminal,
// until the test ends; the next command waits for its first line of output.
import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify, stripVTControlCharacters } from 'node:util';
import { unsupportedNodeMessage } from '@ops/api/node-version';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PackedPackage, packAll } from '../src/pack-all.js';
import { type WorkedExampleStep, workedExampleSteps } from '../src/worked-example.js';

const workspaceRoot = fileURLToPath(new URL('../../..', import.meta.url));
const readme = readFileSync(join(workspaceRoot, 'packages/core/README.md'), 'utf8');
const minutes = 60_000;
const execFileAsync = promisify(execFile);

let work: string;
let project: string;
let packed: PackedPackage[];
/** What `pnpm pack-all` printed: the npm install command of every tarball. */
let installCommand: string;

/** The environment of the user's commands: the workspace's settings must not leak into npm. */
const userEnv: NodeJS.ProcessEnv = {
  ...process.env,
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
  npm_config_user_agent: undefined,
  npm_execpath: undefined,
  NODE_OPTIONS: undefined,
  FORCE_COLOR: undefined,
  FORCE_TTY: undefined,
  KUBECONFIG: undefined,
  NO_COLOR: '1',
};

/** Runs a shell command in `cwd` (default the project); throws with its output when it fails. */
async function run(command: string, cwd = project): Promise<string> {
  try {
    const { stdout } = await execFileAsync('sh', ['-c', command], {
      cwd,
      encoding: 'utf8',
      env: userEnv,
      maxBuffer: 64 * 1024 * 1024,
    });
    return stdout;
  } catch (error) {
    const failure = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(
      `\`${command}\` failed in ${cwd}:\n${failure.stdout ?? ''}${failure.stderr ?? failure.message}`,
    );
  }
}

/** A command of the example left running in the background (`... &`). */
interface Background {
  command: string;
  child: ChildProcess;
  log: string;
}
const background: Background[] = [];

/**
 * Starts `command` in its own process group with its output in a file (never a pipe nobody
 * reads), and resolves once it has printed a line: the server wrote its kubeconfig, npm
 * started the operator.
 */
async function startInBackground(command: string): Promise<Background> {
  const log = join(work, `background-${background.length}.log`);
  const fd = openSync(log, 'w');
  const child = spawn('sh', ['-c', command], {
    cwd: project,
    env: userEnv,
    detached: true,
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  const entry = { command, child, log };
  background.push(entry);
  const deadline = Date.now() + 3 * minutes;
  while (!readFileSync(log, 'utf8').includes('\n')) {
    if (child.exitCode !== null || Date.now() > deadline) {
      throw new Error(
        `\`${command}\` ${child.exitCode !== null ? `exited (${child.exitCode})` : 'printed nothing in 3 minutes'}:\n${readFileSync(log, 'utf8')}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return entry;
}

/** Stops what runs in the background (SIGTERM to its process group), and waits for it. */
async function stopBackground(): Promise<void> {
  for (const { child } of background.splice(0).reverse()) {
    if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) continue;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(-child.pid, 'SIGTERM');
    const timer = setTimeout(() => child.pid && process.kill(-child.pid, 'SIGKILL'), minutes);
    await exited;
    clearTimeout(timer);
  }
}

/**
 * What the README says, as this machine runs it: `npm install @ops/x ...` with each packed
 * `@ops/x` replaced by its tarball, and `kubectl` as $KUBECTL when the test command set one.
 */
function asRun(command: string): string {
  if (/^kubectl /.test(command) && process.env.KUBECTL) {
    return `${JSON.stringify(process.env.KUBECTL)}${command.slice('kubectl'.length)}`;
  }
  if (!/^npm (install|i)\b/.test(command)) return command;
  return command
    .split(' ')
    .map((word) => packed.find((entry) => entry.name === word)?.tarball ?? word)
    .join(' ');
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'ops-npm-consumer-'));
  const tarballs = join(work, 'tarballs');
  // As a user packs them from a clone: `pnpm pack-all` builds and packs every public package
  // and prints the npm install command for them (its only line on stdout).
  ({ packed, installCommand } = packAll(workspaceRoot, tarballs));
  project = join(work, 'widget-operator');
  mkdirSync(project);
}, 5 * minutes);

// The project's node_modules holds every installed package: on a loaded 2-core machine
// removing it took longer than vitest's default 30 s hook timeout.
afterAll(async () => {
  await stopBackground();
  if (work) await rm(work, { recursive: true, force: true });
}, 5 * minutes);

describe("@ops/core's worked example, from the packed packages", () => {
  let steps: WorkedExampleStep[];

  it('packs every public package, the ones the example installs among them', () => {
    const names = packed.map((entry) => entry.name);
    expect(names).toEqual(
      expect.arrayContaining(['@ops/core', '@ops/apiserver', '@ops/envtest', '@ops/manifests']),
    );
    steps = workedExampleSteps(readme);
    const installed = steps
      .filter((step) => step.kind === 'command')
      .flatMap((step) => step.command.split(' ').filter((word) => word.startsWith('@ops/')));
    expect(installed.sort()).toEqual(['@ops/core', '@ops/envtest', '@ops/manifests']);
    for (const name of installed) expect(names).toContain(name);
  });

  it('is strict and skips no library check', () => {
    const tsconfig = steps.find((step) => step.kind === 'file' && step.path === 'tsconfig.json');
    expect(tsconfig?.kind).toBe('file');
    const options = JSON.parse(tsconfig?.kind === 'file' ? tsconfig.content : '{}').compilerOptions;
    expect(options.strict).toBe(true);
    expect(options.skipLibCheck).toBeUndefined();
  });

  it(
    'runs as pasted: install, typecheck, ops-manifests, its test on the local API server, then npm start reconciles a Widget',
    async () => {
      const direct = new Set(
        steps.flatMap((step) => (step.kind === 'command' ? step.command.split(' ') : [])),
      );
      const outputs = new Map<string, string>();
      try {
        for (const step of steps) {
          if (step.kind === 'command') {
            if (step.command.endsWith(' &')) {
              await startInBackground(asRun(step.command.slice(0, -2)));
            } else {
              outputs.set(step.command, stripVTControlCharacters(await run(asRun(step.command))));
            }
            continue;
          }
          const path = join(project, step.path);
          expect(relative(project, path).startsWith('..')).toBe(false);
          mkdirSync(dirname(path), { recursive: true });
          let content = step.content;
          if (step.path === 'package.json') {
            // The packages the example does not name (dependencies of those it does) come from
            // their tarballs too, where a user's npm would fetch them from the registry.
            const manifest = JSON.parse(content);
            manifest.overrides = Object.fromEntries(
              packed
                .filter((entry) => !direct.has(entry.name))
                .map((entry) => [entry.name, `file:${entry.tarball}`]),
            );
            content = `${JSON.stringify(manifest, null, 2)}\n`;
          }
          writeFileSync(path, content);
        }
        expect(outputs.get('npm test')).toMatch(/Tests\s+1 passed/);
        // The operator, started with npm start, reconciled the sample into its ConfigMap...
        const commands = [...outputs.keys()];
        const waited = commands.find((command) => / wait widget\/hello /.test(command));
        expect(outputs.get(waited ?? '')).toContain('widget.example.com/hello condition met');
        const read = commands.find((command) => /get configmap hello-message /.test(command));
        expect(outputs.get(read ?? '')).toBe('hi');
        // ...and is still running, without a webhook server (it declares no webhook).
        const operator = background.find((entry) => /npm start/.test(entry.command));
        expect(operator?.child.exitCode).toBeNull();
        const logs = readFileSync(operator?.log ?? '', 'utf8')
          .split('\n')
          .filter((line) => line.startsWith('{'))
          .map((line) => JSON.parse(line) as Record<string, unknown>);
        expect(logs.find((line) => line.msg === 'starting the widget-operator')).toMatchObject({
          operator: 'widget-operator',
          webhooks: false,
        });
        expect(logs.filter((line) => (line.level as number) >= 50)).toEqual([]);
      } finally {
        await stopBackground();
      }
      // What ran was the packed code, not the workspace's.
      const core = join(project, 'node_modules/@ops/core/package.json');
      expect(JSON.parse(readFileSync(core, 'utf8')).exports['.']).toEqual({
        types: './dist/index.d.ts',
        default: './dist/index.js',
      });
      const crd = readFileSync(join(project, 'config/crd/bases/example.com_widgets.yaml'), 'utf8');
      expect(crd).toContain('name: Ready');
      expect(crd).toContain('x-kubernetes-list-type: map');
      const role = readFileSync(join(project, 'config/rbac/role.yaml'), 'utf8');
      expect(role).toContain('widgets/status');
      // Derived from the controller's owns(): what blockOwnerDeletion needs on a hardened cluster.
      expect(role).toContain('widgets/finalizers');
      expect(await run('node dist/src/main.js --help')).toContain('widget-operator');
      expect(existsSync(join(project, 'node_modules/@ops/apiserver/dist/index.js'))).toBe(true);
    },
    15 * minutes,
  );
});

/** Runs `node` with `args` in the project; its exit code and output, whatever they are. */
async function exitOf(
  node: string,
  args: string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await execFileAsync(node, args, { cwd: project, env: userEnv });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failure = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failure.code ?? -1, stdout: failure.stdout ?? '', stderr: failure.stderr ?? '' };
  }
}

describe('on an unsupported Node.js', () => {
  // A Node.js 20 release, installed as scripts/ensure-node.sh installs any (the official
  // Linux binary from the npm registry, under .cache/tools) unless it is there already.
  const oldVersion = '20.20.2';

  it(
    'every bin and the operator refuse it, naming the release they need; on this Node.js they run',
    async () => {
      // ops-operator is not part of the example: unpacked where npm would install it (its
      // dependencies are the example's already; npm refuses to install it beside the
      // example's overrides).
      const cli = packed.find((entry) => entry.name === '@ops/operator-cli');
      const cliDirectory = join(project, 'node_modules/@ops/operator-cli');
      mkdirSync(cliDirectory, { recursive: true });
      execFileSync('tar', ['-xzf', cli?.tarball ?? '', '-C', cliDirectory, '--strip-components=1']);
      const bins: Record<string, string> = {
        'ops-operator': join(cliDirectory, 'bin/ops-operator.js'),
        'ops-manifests': join(project, 'node_modules/.bin/ops-manifests'),
        'local-cluster': join(project, 'node_modules/.bin/local-cluster'),
      };
      const bin = (
        await execFileAsync(
          'bash',
          [
            '-c',
            'repo_root="$1"; source "$1/scripts/ensure-node.sh" && node_bin_dir "$2"',
            '_',
            workspaceRoot,
            oldVersion,
          ],
          { encoding: 'utf8', timeout: 5 * minutes },
        )
      ).stdout.trim();
      const oldNode = join(bin, 'node');
      expect((await exitOf(oldNode, ['--version'])).stdout.trim()).toBe(`v${oldVersion}`);
      const message = unsupportedNodeMessage(oldVersion);
      expect(message).toMatch(
        new RegExp(`^Node\\.js >= \\d+\\.\\d+ is required, this is ${oldVersion}:`),
      );
      for (const [program, script] of Object.entries(bins)) {
        expect(await exitOf(oldNode, [script, '--help'])).toEqual({
          code: 1,
          stdout: '',
          stderr: `${program}: ${message}\n`,
        });
        const works = await exitOf(process.execPath, [script, '--help']);
        expect(works.code, works.stderr).toBe(0);
        expect(works.stdout).toMatch(new RegExp(`^Usage: ${program} `));
      }
      // The operator's main (npm start): loading @ops/core refuses before anything fails.
      const refused = await exitOf(oldNode, ['dist/src/main.js', '--help']);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(`[UnsupportedNodeError: ${message}]`);
      expect(refused.stderr).not.toContain('undici');
      const started = await exitOf(process.execPath, ['dist/src/main.js', '--help']);
      expect(started.stdout).toMatch(/^Usage: widget-operator /);
    },
    10 * minutes,
  );
});

describe('pnpm pack-all', () => {
  it(
    'prints one npm install command that installs the packages together, @ops/core with the @ops/api it needs',
    async () => {
      const consumer = join(work, 'consumer');
      mkdirSync(consumer);
      writeFileSync(
        join(consumer, 'package.json'),
        `${JSON.stringify({ name: 'consumer', private: true, type: 'module' })}\n`,
      );
      await run(installCommand, consumer);
      const loaded = await run(
        `node --input-type=module -e "const core = await import('@ops/core'); console.log(typeof core.runOperator)"`,
        consumer,
      );
      expect(loaded.trim()).toBe('function');
    },
    5 * minutes,
  );
});
