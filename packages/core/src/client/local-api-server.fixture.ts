/**
 * Test fixture (not part of the package's API): runs the local API server of
 * `@ops/apiserver` as a child process from its built CLI, so core's tests talk to a real
 * server without importing the package (which would be a dependency cycle).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KubeConfig } from '@kubernetes/client-node';

const cli = resolve(dirname(fileURLToPath(import.meta.url)), '../../../apiserver/dist/cli.js');

/** A running local API server. */
export interface LocalApiServer {
  /** `http://127.0.0.1:PORT` or `https://...`. */
  url: string;
  /** Path of the admin kubeconfig the server wrote. */
  kubeconfigPath: string;
  /** The admin kubeconfig, loaded. */
  kubeConfig: KubeConfig;
  /** A kubeconfig for the same server authenticating with `token`. */
  kubeConfigWithToken(token: string, userName?: string): KubeConfig;
  /** A bearer token for the service account `namespace/name` (which need not exist). */
  serviceAccountToken(namespace: string, name: string): Promise<string>;
  /**
   * Stops the CLI process (SIGTERM) and starts a new one on the same port with the same
   * options: with `stateDir`, the same cluster identity (CA, serving certificate, admin token),
   * so kubeconfigs written before keep working; its objects are gone, as after a restart
   * without etcd.
   */
  restartProcess(): Promise<void>;
  stop(): Promise<void>;
}

/** Starts the CLI with `args`; resolves once it wrote its kubeconfig, or rejects with its output. */
async function spawnServer(args: string[]): Promise<ChildProcess> {
  const child: ChildProcess = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  await new Promise<void>((ready, fail) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`the local API server did not start within 20 s:\n${output}`));
    }, 20_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('kubeconfig written to')) {
        clearTimeout(timer);
        ready();
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`the local API server exited with ${code}:\n${output}`));
    });
  });
  return child;
}

/** Stops a CLI process: SIGTERM, then SIGKILL after 2 s (it waits for open requests). */
async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((done) => child.once('exit', done));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 2_000);
  await exited;
  clearTimeout(timer);
}

/**
 * Starts the CLI on a free port (`port` to choose it); rejects with its output when it does
 * not come up in 20 s. `stateDir`: the CLI's `--state-dir`.
 */
export async function startLocalApiServer(
  options: { https?: boolean; rbac?: boolean; stateDir?: string } = {},
): Promise<LocalApiServer> {
  if (!existsSync(cli)) {
    throw new Error(
      `${cli} is missing; build it with: cd packages/apiserver && ./node_modules/.bin/tsup`,
    );
  }
  const dir = await mkdtemp(join(tmpdir(), 'ops-core-apiserver-'));
  const kubeconfigPath = join(dir, 'kubeconfig');
  const args = (port: string) => {
    const argv = [cli, '--port', port, '--kubeconfig', kubeconfigPath];
    if (!options.https) argv.push('--http');
    if (options.rbac) argv.push('--rbac');
    if (options.stateDir) argv.push('--state-dir', options.stateDir);
    return argv;
  };
  let child = await spawnServer(args('0'));
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(kubeconfigPath);
  const url = kubeConfig.getCurrentCluster()?.server ?? '';
  const kubeConfigWithToken = (token: string, userName = 'user'): KubeConfig => {
    const config = new KubeConfig();
    config.loadFromOptions({
      clusters: kubeConfig.getClusters(),
      users: [{ name: userName, token }],
      contexts: [{ name: 'ctx', cluster: kubeConfig.getClusters()[0]?.name ?? '', user: userName }],
      currentContext: 'ctx',
    });
    return config;
  };
  return {
    url,
    kubeconfigPath,
    kubeConfig,
    kubeConfigWithToken,
    async serviceAccountToken(namespace, name) {
      const { KubeTransport } = await import('../transport/kube-transport.js');
      const transport = new KubeTransport(kubeConfig);
      try {
        const response = await transport.request({
          method: 'POST',
          path: '/__ops/tokens',
          body: { namespace, serviceAccount: name },
        });
        const body = JSON.parse(response.text) as { token?: string };
        if (!body.token) throw new Error(`no token in ${response.text}`);
        return body.token;
      } finally {
        transport.close();
      }
    },
    async restartProcess() {
      await stopServer(child);
      child = await spawnServer(args(new URL(url).port));
    },
    async stop() {
      await stopServer(child);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
