import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const kubectl = process.env.KUBECTL ?? 'kubectl';
let child: ChildProcess | undefined;

afterEach(() => {
  child?.kill('SIGTERM');
  child = undefined;
});

function start(args: string[]): Promise<string> {
  child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let output = '';
    child?.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('kubeconfig written')) resolve(output);
    });
    child?.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child?.on('exit', (code) => reject(new Error(`local-cluster exited with ${code}: ${output}`)));
  });
}

// The built CLI (turbo builds the package before its tests), driven as users drive it. Each
// test starts the CLI (and kubectl) several times: a second or two each alone, many times that
// when CI runs every package's tests at once on 2 cores.
describe('local-cluster CLI', { timeout: 60_000 }, () => {
  it('serves HTTPS, writes a kubeconfig the real kubectl uses, and stops on SIGTERM', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'local-cluster-'));
    const kubeconfig = join(dir, 'kubeconfig');
    const output = await start(['--port', '0', '--kubeconfig', kubeconfig]);
    expect(output).toMatch(/serving https:\/\/127\.0\.0\.1:\d+/);
    const { stdout } = await run(kubectl, [
      '--kubeconfig',
      kubeconfig,
      'get',
      'namespaces',
      '-o',
      'name',
    ]);
    expect(stdout).toContain('namespace/kube-system');
    const exited = new Promise((resolve) => child?.on('exit', resolve));
    child?.kill('SIGTERM');
    expect(await exited).toBe(0);
    await rm(dir, { recursive: true, force: true });
  });

  it('serves plain HTTP with --http and enforces RBAC with --rbac', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'local-cluster-'));
    const output = await start([
      '--port',
      '0',
      '--http',
      '--rbac',
      '--kubeconfig',
      join(dir, 'kubeconfig'),
    ]);
    expect(output).toMatch(/serving http:\/\/127\.0\.0\.1:\d+ \(RBAC enforced\)/);
    await rm(dir, { recursive: true, force: true });
  });

  it('finishes Pods and Jobs after --pod-run-duration, as kubectl shows them', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'local-cluster-'));
    const kubeconfig = join(dir, 'kubeconfig');
    await start([
      '--port',
      '0',
      '--http',
      '--kubeconfig',
      kubeconfig,
      '--pod-run-duration',
      '300ms',
    ]);
    const k = async (...args: string[]) =>
      (await run(kubectl, ['--kubeconfig', kubeconfig, ...args])).stdout;
    await k('run', 'once', '--image=busybox', '--restart=Never');
    await k(
      'run',
      'oops',
      '--image=busybox',
      '--restart=Never',
      '--annotations=ops-ts.github.io/exit-code=2',
    );
    await k('run', 'web', '--image=nginx');
    await k('create', 'job', 'batch', '--image=busybox');
    await k('wait', '--for=jsonpath={.status.phase}=Succeeded', 'pod/once', '--timeout=20s');
    await k('wait', '--for=jsonpath={.status.phase}=Failed', 'pod/oops', '--timeout=20s');
    await k('wait', '--for=condition=Complete', 'job/batch', '--timeout=20s');
    const pods = await k('get', 'pods');
    expect(pods).toMatch(/once\s+0\/1\s+Completed\s+0\s/);
    expect(pods).toMatch(/oops\s+0\/1\s+Error\s+0\s/);
    expect(pods).toMatch(/web\s+1\/1\s+Running\s+0\s/);
    expect(pods).toMatch(/batch-[a-z0-9]{5}\s+0\/1\s+Completed\s/);
    expect(await k('get', 'jobs')).toMatch(/batch\s+Complete\s+1\/1\s+\d+m?s\s+\d+s/);
    await rm(dir, { recursive: true, force: true });
  });

  it('rejects bad flags with a message saying what is wrong', async () => {
    await expect(run(process.execPath, [cli, '--port', 'abc'])).rejects.toMatchObject({
      stderr: expect.stringContaining('--port must be a number from 0 to 65535, got "abc"'),
    });
    await expect(run(process.execPath, [cli, '--bogus'])).rejects.toMatchObject({
      stderr: expect.stringContaining("Unknown option '--bogus'"),
    });
    await expect(run(process.execPath, [cli, '--pod-run-duration', 'soon'])).rejects.toMatchObject({
      stderr: expect.stringContaining(
        '--pod-run-duration must be a duration such as 500ms, 3s or 1m30s, got "soon"',
      ),
    });
    await expect(run(process.execPath, [cli, '--pod-exit-code', '256'])).rejects.toMatchObject({
      stderr: expect.stringContaining(
        '--pod-exit-code must be an integer from 0 (Succeeded) to 255 (Failed), got "256"',
      ),
    });
    const { stdout } = await run(process.execPath, [cli, '--help']);
    expect(stdout).toContain('Usage: local-cluster');
    expect(stdout).toContain('--pod-run-duration <duration>');
  });

  it('names the port, the flag that sets it and what to do when the port is taken', async () => {
    // A port the OS just handed out and that stays held while the CLI tries it.
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as AddressInfo;
    try {
      await expect(
        run(process.execPath, [
          cli,
          '--port',
          String(port),
          '--kubeconfig',
          join(tmpdir(), 'unused'),
        ]),
      ).rejects.toMatchObject({
        stderr: expect.stringContaining(
          `local-cluster: port ${port} on 127.0.0.1 is already in use (the port is set by --port, default 6443): stop the process listening there (lsof -i :${port} shows which), or pick another port with --port <n>, or --port 0 for any free one`,
        ),
      });
    } finally {
      holder.close();
    }
  });

  it('keeps its CA, serving certificate and admin token in --state-dir across restarts', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'local-cluster-'));
    const state = join(dir, 'state');
    const kubeconfig = join(dir, 'kubeconfig');
    const first = await start(['--port', '0', '--state-dir', state, '--kubeconfig', kubeconfig]);
    const port = /serving https:\/\/127\.0\.0\.1:(\d+)/.exec(first)?.[1] ?? '';
    const k = async (...args: string[]) =>
      (await run(kubectl, ['--kubeconfig', kubeconfig, ...args])).stdout;
    await k('create', 'namespace', 'before-restart');
    const stopped = new Promise((resolve) => child?.on('exit', resolve));
    child?.kill('SIGTERM');
    expect(await stopped).toBe(0);
    const written = await readFile(kubeconfig, 'utf8');
    expect((await stat(join(state, 'ca.key'))).mode & 0o777).toBe(0o600);
    expect((await stat(join(state, 'admin.token'))).mode & 0o777).toBe(0o600);

    // The same port and state directory: the kubeconfig written by the first run still works.
    await start(['--port', port, '--state-dir', state, '--kubeconfig', join(dir, 'second')]);
    expect(await readFile(join(dir, 'second'), 'utf8')).toBe(written);
    expect(await k('get', 'namespaces', '-o', 'name')).toContain('namespace/kube-system');
    // Objects are not kept: only the identity of the cluster is.
    expect(await k('get', 'namespaces', '-o', 'name')).not.toContain('before-restart');
    await rm(dir, { recursive: true, force: true });
  });

  it('says which file is missing when the state directory holds half a key pair', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'local-cluster-'));
    await writeFile(join(dir, 'ca.crt'), 'not a certificate');
    await expect(
      run(process.execPath, [
        cli,
        '--port',
        '0',
        '--state-dir',
        dir,
        '--kubeconfig',
        join(dir, 'k'),
      ]),
    ).rejects.toMatchObject({
      stderr: expect.stringContaining(
        `local-cluster: --state-dir: the state directory ${dir} holds ca.crt but not ca.key; restore the file, or remove the directory to start a new cluster`,
      ),
    });
    await rm(dir, { recursive: true, force: true });
  });
});
