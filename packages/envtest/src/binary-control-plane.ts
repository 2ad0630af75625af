import { type ChildProcess, spawn } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import YAML from 'yaml';
import { freePort, retryWhilePortTaken } from './free-port.js';
import { hardenedApiServerArgs } from './hardened-api-server-args.js';

/** A running etcd + kube-apiserver pair started from binaries. */
export interface BinaryControlPlane {
  kubeconfig: string;
  /**
   * The kube-apiserver process's id, for measuring it (its memory in /proc, say); undefined
   * if the operating system gave none.
   */
  readonly apiServerPid: number | undefined;
  /**
   * Stops kube-apiserver (SIGTERM, as a rolling restart does; SIGKILL after 5 s), waits
   * `downtimeMs`, then starts it again with the same flags, port, certificates and etcd, and
   * resolves once it is ready again. Every watch is cut; stored objects stay (etcd keeps
   * running), while the new process's watch cache starts from etcd's current revision.
   *
   * @throws Error with kube-apiserver's last log lines if it does not become ready in time.
   */
  restartApiServer(options?: { downtimeMs?: number }): Promise<void>;
  stop(): Promise<void>;
}

/** Options of {@link startBinaryControlPlane}. */
export interface BinaryControlPlaneOptions {
  /** How long etcd and kube-apiserver may take to become healthy (default 60 s). */
  timeoutMs?: number;
  /**
   * kube-apiserver's feature gates, as its `--feature-gates` flag (`{ ShardedListAndWatch:
   * true }` turns on an alpha gate). Default: none, the release's defaults. A gate the release
   * does not know makes kube-apiserver exit, and the start fails quoting its log.
   */
  featureGates?: Readonly<Record<string, boolean>>;
}

/**
 * The `--feature-gates` flag for `gates` (`A=true,B=false`, sorted by name), or nothing when
 * there are none.
 *
 * @throws {Error} when a gate's name is not a feature gate's (letters and digits, starting
 *   with a capital letter), so a typo is not passed on.
 */
export function featureGatesArgs(gates: Readonly<Record<string, boolean>> = {}): string[] {
  const names = Object.keys(gates).sort();
  if (names.length === 0) return [];
  for (const name of names)
    if (!/^[A-Z][A-Za-z0-9]*$/.test(name))
      throw new Error(
        `envtest: "${name}" is not a feature gate's name (letters and digits, starting with a capital, as ShardedListAndWatch); fix the featureGates option`,
      );
  return [`--feature-gates=${names.map((name) => `${name}=${gates[name] === true}`).join(',')}`];
}

/** Sends SIGTERM, then SIGKILL after 5 s; resolves once the child has exited. */
async function terminate(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  await new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve(undefined);
    }, 5000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(undefined);
    });
  });
}

function startProcess(binary: string, args: string[], name: string, logs: string[]): ChildProcess {
  const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const keep = (chunk: Buffer) => {
    logs.push(chunk.toString('utf8'));
    if (logs.length > 200) logs.shift();
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  child.on('error', (error) => logs.push(`${name}: ${error.message}`));
  return child;
}

async function waitHealthy(
  url: string,
  ca: () => Promise<string | undefined>,
  child: ChildProcess,
  name: string,
  logs: string[],
  timeoutMs: number,
): Promise<void> {
  const { default: https } = await import('node:https');
  const { default: http } = await import('node:http');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) {
      throw new Error(
        `${name} exited with code ${child.exitCode} before becoming healthy:\n${logs.join('').slice(-4000)}`,
      );
    }
    const healthy = await new Promise<boolean>((resolve) => {
      ca().then(
        (caPem) => {
          const target = new URL(url);
          const transport = target.protocol === 'https:' ? https : http;
          const request = transport.get(
            target,
            { ...(caPem ? { ca: caPem } : { rejectUnauthorized: false }), timeout: 1000 },
            (response) => {
              response.resume();
              resolve(response.statusCode === 200);
            },
          );
          request.on('error', () => resolve(false));
          request.on('timeout', () => request.destroy());
        },
        () => resolve(false),
      );
    });
    if (healthy) return;
    if (Date.now() > deadline)
      throw new Error(
        `${name} did not become healthy at ${url} within ${timeoutMs} ms:\n${logs.join('').slice(-4000)}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Starts real `etcd` and `kube-apiserver` from `assetsDir` (as controller-runtime's envtest
 * does with KUBEBUILDER_ASSETS): etcd on free loopback ports with a throwaway data dir, and
 * kube-apiserver configured as a hardened production cluster is ({@link hardenedApiServerArgs}:
 * `Node,RBAC` authorization and the `NodeRestriction`, `OwnerReferencesPermissionEnforcement`
 * and `PodSecurity` admission plugins on), a static admin token in `system:masters`, and
 * service-account keys generated for the run; no endpoint reconciler, and the ServiceAccount
 * admission plugin off, as controller-runtime's envtest (see {@link hardenedApiServerArgs}
 * for why). Resolves once `/readyz` answers 200. The ports are picked free just before etcd and
 * kube-apiserver bind them; a start in which another process took one first is made again
 * with fresh ports, up to three times in all.
 *
 * @throws {Error} naming the missing binary, or quoting the process's last log lines when it
 *   exits or stays unhealthy.
 */
export async function startBinaryControlPlane(
  assetsDir: string,
  options: BinaryControlPlaneOptions = {},
): Promise<BinaryControlPlane> {
  // A process that lost its port to another says "address already in use" and exits.
  return retryWhilePortTaken(
    () => startBinaryControlPlaneOnce(assetsDir, options),
    (error) => error instanceof Error && error.message.includes('address already in use'),
  );
}

async function startBinaryControlPlaneOnce(
  assetsDir: string,
  options: BinaryControlPlaneOptions,
): Promise<BinaryControlPlane> {
  const etcdBinary = join(assetsDir, 'etcd');
  const apiserverBinary = join(assetsDir, 'kube-apiserver');
  for (const binary of [etcdBinary, apiserverBinary]) {
    if (!existsSync(binary)) {
      throw new Error(
        `KUBEBUILDER_ASSETS=${assetsDir} has no ${binary.slice(assetsDir.length + 1)}; download the envtest binaries (setup-envtest use) or unset KUBEBUILDER_ASSETS to use the local API server`,
      );
    }
  }
  const timeoutMs = options.timeoutMs ?? 60_000;
  const dir = await mkdtemp(join(tmpdir(), 'ops-envtest-'));
  const logs: string[] = [];
  const children: ChildProcess[] = [];
  // A test process that ends without stop() (a failed hook) takes etcd and kube-apiserver
  // with it rather than leaving them running.
  const killOnExit = () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  };
  process.once('exit', killOnExit);
  const stop = async () => {
    process.removeListener('exit', killOnExit);
    for (const child of [...children].reverse()) await terminate(child);
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const [clientPort, peerPort, securePort] = [
      await freePort(),
      await freePort(),
      await freePort(),
    ];
    const etcdUrl = `http://127.0.0.1:${clientPort}`;
    children.push(
      startProcess(
        etcdBinary,
        [
          '--data-dir',
          join(dir, 'etcd'),
          '--listen-client-urls',
          etcdUrl,
          '--advertise-client-urls',
          etcdUrl,
          '--listen-peer-urls',
          `http://127.0.0.1:${peerPort}`,
          '--unsafe-no-fsync',
        ],
        'etcd',
        logs,
      ),
    );
    await waitHealthy(
      `${etcdUrl}/health`,
      async () => undefined,
      children[0] as ChildProcess,
      'etcd',
      logs,
      timeoutMs,
    );
    const token = randomBytes(24).toString('hex');
    await writeFile(join(dir, 'tokens.csv'), `${token},admin,admin,"system:masters"\n`);
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    await writeFile(join(dir, 'sa.key'), privateKey.export({ type: 'pkcs8', format: 'pem' }));
    await writeFile(join(dir, 'sa.pub'), publicKey.export({ type: 'spki', format: 'pem' }));
    const certDir = join(dir, 'certs');
    const apiServerArgs = [
      `--etcd-servers=${etcdUrl}`,
      `--cert-dir=${certDir}`,
      `--secure-port=${securePort}`,
      '--bind-address=127.0.0.1',
      '--advertise-address=127.0.0.1',
      '--service-cluster-ip-range=10.0.0.0/24',
      `--token-auth-file=${join(dir, 'tokens.csv')}`,
      `--service-account-key-file=${join(dir, 'sa.pub')}`,
      `--service-account-signing-key-file=${join(dir, 'sa.key')}`,
      '--service-account-issuer=https://kubernetes.default.svc',
      '--allow-privileged=true',
      // No endpoint reconciler: kube-apiserver refuses a loopback advertise address for
      // the `kubernetes` Service's endpoints, and nothing here routes to them.
      '--endpoint-reconciler-type=none',
      ...hardenedApiServerArgs.map(([flag, value]) => `--${flag}=${value}`),
      ...featureGatesArgs(options.featureGates),
    ];
    children.push(startProcess(apiserverBinary, apiServerArgs, 'kube-apiserver', logs));
    const caPath = join(certDir, 'apiserver.crt');
    const readCa = async () => (existsSync(caPath) ? readFile(caPath, 'utf8') : undefined);
    await waitHealthy(
      `https://127.0.0.1:${securePort}/readyz`,
      readCa,
      children[1] as ChildProcess,
      'kube-apiserver',
      logs,
      timeoutMs,
    );
    const ca = (await readCa()) ?? '';
    const kubeconfig = YAML.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [
        {
          name: 'envtest',
          cluster: {
            server: `https://127.0.0.1:${securePort}`,
            'certificate-authority-data': Buffer.from(ca).toString('base64'),
          },
        },
      ],
      users: [{ name: 'admin', user: { token } }],
      contexts: [
        { name: 'envtest', context: { cluster: 'envtest', user: 'admin', namespace: 'default' } },
      ],
      'current-context': 'envtest',
    });
    const ready = `https://127.0.0.1:${securePort}/readyz`;
    return {
      kubeconfig,
      get apiServerPid() {
        return children[1]?.pid;
      },
      async restartApiServer({ downtimeMs = 0 } = {}) {
        await terminate(children[1] as ChildProcess);
        if (downtimeMs > 0) await new Promise((resolve) => setTimeout(resolve, downtimeMs));
        const restarted = startProcess(apiserverBinary, apiServerArgs, 'kube-apiserver', logs);
        children[1] = restarted;
        await waitHealthy(ready, readCa, restarted, 'kube-apiserver', logs, timeoutMs);
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
