import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { defaultPodRunDuration, parsePodRunDuration } from '@ops/apiserver';
import YAML from 'yaml';
import { controlPlaneBinaries } from './control-plane-assets.js';
import { ControlPlaneAssetsError } from './errors/control-plane-assets-error.js';
import { eventually } from './eventually.js';
import { freePort, retryWhilePortTaken } from './free-port.js';
import { hardenedApiServerArgs } from './hardened-api-server-args.js';
import { kubeRequest } from './kube-request.js';
import { kwokStages } from './kwok-stages.js';

/** A whole cluster with fake nodes, started by kwokctl's `binary` runtime. */
export interface ClusterControlPlane {
  /** The admin kubeconfig (YAML, certificates inlined). */
  kubeconfig: string;
  /** The kwokctl cluster name (unique per start). */
  name: string;
  /** kwokctl's work directory (KWOK_WORKDIR) of this cluster: config, PKI, logs, pids. */
  workdir: string;
  /** The names of the fake nodes, all Ready. */
  nodes: string[];
  /** Deletes the cluster: stops every process and removes the work directory. Safe twice. */
  stop(): Promise<void>;
}

/** Options of {@link startClusterControlPlane}. */
export interface ClusterControlPlaneOptions {
  /** How long the cluster may take to start and its nodes to become Ready (default 120 s). */
  timeoutMs?: number;
  /** How many kwok nodes (default 1). */
  nodes?: number;
  /**
   * How long a Pod with restartPolicy Never/OnFailure runs without the run-duration
   * annotation, a Go duration (default `defaultPodRunDuration` of `@ops/apiserver`, `1s`).
   */
  podRunDuration?: string;
  /** kube-apiserver's port (default: a free one). */
  apiServerPort?: number;
}

function run(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-20_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** The process ids kwokctl recorded for the cluster's components. */
function componentPids(clusterDir: string): number[] {
  const pids = join(clusterDir, 'pids');
  if (!existsSync(pids)) return [];
  return readdirSync(pids)
    .map((file) => Number.parseInt(readFileSync(join(pids, file), 'utf8').trim(), 10))
    .filter((pid) => pid > 0);
}

function signal(pids: readonly number[], name: NodeJS.Signals | 0): number[] {
  return pids.filter((pid) => {
    try {
      process.kill(pid, name);
      return true;
    } catch {
      return false; // gone already
    }
  });
}

async function lastLogLines(clusterDir: string): Promise<string> {
  const logs = join(clusterDir, 'logs');
  if (!existsSync(logs)) return '';
  const parts: string[] = [];
  for (const file of await readdir(logs)) {
    const text = await readFile(join(logs, file), 'utf8').catch(() => '');
    parts.push(`--- ${file}\n${text.split('\n').slice(-15).join('\n')}`);
  }
  return parts.join('\n');
}

/**
 * The first log line of a component that could not listen on the port it was given ("bind:
 * address already in use"): the ports are picked free, but another process can take one
 * before the component binds it. Undefined when no component says so.
 */
export async function portTakenLine(clusterDir: string): Promise<string | undefined> {
  const logs = join(clusterDir, 'logs');
  if (!existsSync(logs)) return undefined;
  for (const file of await readdir(logs)) {
    const text = await readFile(join(logs, file), 'utf8').catch(() => '');
    const line = text.split('\n').find((entry) => entry.includes('address already in use'));
    if (line !== undefined) return `${file}: ${line.slice(0, 400)}`;
  }
  return undefined;
}

/** A start that failed because a component's port was taken first: started again. */
class PortTakenError extends Error {}

/** kwokctl's kubeconfig names files of its PKI; inline them so the YAML stands alone. */
async function inlineKubeconfig(path: string): Promise<string> {
  const config = new KubeConfig();
  config.loadFromFile(path);
  const cluster = config.getCurrentCluster();
  const user = config.getCurrentUser();
  if (!cluster?.caFile || !user?.certFile || !user.keyFile)
    throw new Error(`kwokctl's kubeconfig ${path} has no CA, client certificate or key`);
  const base64 = async (file: string) => (await readFile(file)).toString('base64');
  return YAML.stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      {
        name: 'envtest',
        cluster: {
          server: cluster.server,
          'certificate-authority-data': await base64(cluster.caFile),
        },
      },
    ],
    users: [
      {
        name: 'admin',
        user: {
          'client-certificate-data': await base64(user.certFile),
          'client-key-data': await base64(user.keyFile),
        },
      },
    ],
    contexts: [
      { name: 'envtest', context: { cluster: 'envtest', user: 'admin', namespace: 'default' } },
    ],
    'current-context': 'envtest',
  });
}

/**
 * Starts a whole cluster from the binaries in `assetsDir` with kwokctl's `binary` runtime:
 * etcd, kube-apiserver (RBAC, the admin in `system:masters` by client certificate),
 * kube-controller-manager, kube-scheduler and kwok-controller, on loopback and free ports, in a
 * work directory of its own with a unique cluster name; nothing is downloaded (kwokctl gets
 * every binary as a local path and an empty cache directory). kwok runs the stages of
 * {@link kwokStages} instead of its defaults, and `nodes` fake Nodes (`kwok-node-<i>`) are
 * created and waited for until Ready. kube-apiserver gets the hardened authorization and
 * admission of the `binaries` plane ({@link hardenedApiServerArgs}): `Node,RBAC`,
 * `NodeRestriction`, `OwnerReferencesPermissionEnforcement` and `PodSecurity` on, and the
 * ServiceAccount admission plugin off, so a Pod created in a namespace made a moment before
 * is not refused while kube-controller-manager creates the namespace's `default`
 * ServiceAccount.
 *
 * The ports are picked free just before the components bind them; a start in which another
 * process took one first (a component logs "address already in use") is made again with fresh
 * ports, up to three times in all.
 *
 * The components run detached from this process (kwokctl starts them in sessions of their
 * own); `stop()` deletes the cluster, and a test process that exits without calling it kills
 * them and removes the work directory on its way out.
 *
 * @throws {ControlPlaneAssetsError} naming the missing binary and how to get it.
 * @throws {Error} quoting kwokctl's output and the components' last log lines when the
 *   cluster does not start, or naming the node that did not become Ready in time.
 */
export async function startClusterControlPlane(
  assetsDir: string,
  options: ClusterControlPlaneOptions = {},
): Promise<ClusterControlPlane> {
  return retryWhilePortTaken(
    () => startClusterControlPlaneOnce(assetsDir, options),
    (error) => error instanceof PortTakenError,
  );
}

async function startClusterControlPlaneOnce(
  assetsDir: string,
  options: ClusterControlPlaneOptions,
): Promise<ClusterControlPlane> {
  for (const binary of controlPlaneBinaries) {
    if (!existsSync(join(assetsDir, binary)))
      throw new ControlPlaneAssetsError(
        `${assetsDir} has no ${binary}: the cluster plane runs ${controlPlaneBinaries.join(', ')} from one directory. ` +
          'Build them with `pnpm control-plane build` (or ensureControlPlaneAssets()) and unset KUBEBUILDER_ASSETS, ' +
          "or point KUBEBUILDER_ASSETS at a directory holding all six (setup-envtest's holds only etcd, kube-apiserver and kubectl); " +
          "or use controlPlane: 'local'.",
      );
  }
  const timeoutMs = options.timeoutMs ?? 120_000;
  const podRunDuration = options.podRunDuration ?? defaultPodRunDuration;
  let podRunDurationMs: number;
  try {
    podRunDurationMs = parsePodRunDuration(podRunDuration);
  } catch {
    throw new Error(
      `podRunDuration "${podRunDuration}" is not a duration: write a number with a unit, such as 500ms, 3s or 1m30s`,
    );
  }
  const nodeCount = options.nodes ?? 1;
  if (!Number.isInteger(nodeCount) || nodeCount < 1)
    throw new Error(`nodes must be a whole number of at least 1, got ${nodeCount}`);
  const workdir = await mkdtemp(join(tmpdir(), 'ops-envtest-cluster-'));
  const name = `ops-${randomBytes(4).toString('hex')}`;
  const clusterDir = join(workdir, 'clusters', name);
  const kwokctl = join(assetsDir, 'kwokctl');
  // kwokctl reads KWOK_* variables as configuration and writes KUBECONFIG: keep the caller's out.
  const env: NodeJS.ProcessEnv = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !key.startsWith('KWOK_') && key !== 'KUBECONFIG'),
  );
  env.KWOK_WORKDIR = workdir;

  const killOnExit = () => {
    signal(componentPids(clusterDir), 'SIGKILL');
    rmSync(workdir, { recursive: true, force: true });
  };
  process.once('exit', killOnExit);
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    process.removeListener('exit', killOnExit);
    const pids = componentPids(clusterDir);
    const deleted = await run(kwokctl, ['--name', name, 'delete', 'cluster'], env, 30_000).catch(
      () => undefined,
    );
    if (deleted?.code !== 0) {
      // kwokctl failed or timed out: stop its components here, as it would have.
      let alive = signal(pids, 'SIGTERM');
      for (let i = 0; alive.length > 0 && i < 50; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        alive = signal(alive, 0);
      }
      signal(alive, 'SIGKILL');
    }
    await rm(workdir, { recursive: true, force: true });
  };

  try {
    const ports = {
      kubeApiserverPort: options.apiServerPort || (await freePort()),
      etcdPort: await freePort(),
      etcdPeerPort: await freePort(),
      kubeControllerManagerPort: await freePort(),
      kubeSchedulerPort: await freePort(),
      kwokControllerPort: await freePort(),
    };
    const configuration = {
      apiVersion: 'config.kwok.x-k8s.io/v1alpha1',
      kind: 'KwokctlConfiguration',
      options: {
        runtime: 'binary',
        bindAddress: '127.0.0.1',
        cacheDir: join(workdir, 'cache'),
        ...ports,
        etcdBinary: join(assetsDir, 'etcd'),
        kubeApiserverBinary: join(assetsDir, 'kube-apiserver'),
        kubeControllerManagerBinary: join(assetsDir, 'kube-controller-manager'),
        kubeSchedulerBinary: join(assetsDir, 'kube-scheduler'),
        kwokControllerBinary: join(assetsDir, 'kwok'),
        quietPull: true,
      },
    };
    const configPath = join(workdir, 'kwokctl.yaml');
    await writeFile(
      configPath,
      [configuration, ...kwokStages({ defaultRunDurationMs: podRunDurationMs })]
        .map((document) => YAML.stringify(document))
        .join('---\n'),
    );
    const created = await run(
      kwokctl,
      [
        '--name',
        name,
        '--config',
        configPath,
        'create',
        'cluster',
        '--kubeconfig',
        '',
        // kwokctl itself gives kube-apiserver `--authorization-mode=Node,RBAC` with
        // --kube-authorization; a second --authorization-mode makes kube-apiserver exit ("has
        // mode specified more than once"), so only the admission flags go in --extra-args.
        '--kube-authorization=true',
        ...hardenedApiServerArgs
          .filter(([flag]) => flag !== 'authorization-mode')
          .flatMap(([flag, value]) => ['--extra-args', `kube-apiserver=${flag}=${value}`]),
        '--wait',
        `${Math.ceil(timeoutMs / 1000)}s`,
      ],
      env,
      timeoutMs + 10_000,
    );
    if (created.code !== 0)
      throw new Error(
        `kwokctl create cluster ${name} failed (exit code ${created.code}):\n${created.output.trim().slice(-4000)}`,
      );
    const kubeconfig = await inlineKubeconfig(join(clusterDir, 'kubeconfig.yaml'));
    const config = new KubeConfig();
    config.loadFromString(kubeconfig);
    const nodes = Array.from({ length: nodeCount }, (_, i) => `kwok-node-${i}`);
    for (const node of nodes) {
      const response = await kubeRequest(config, 'POST', '/api/v1/nodes', {
        apiVersion: 'v1',
        kind: 'Node',
        metadata: {
          name: node,
          annotations: { 'kwok.x-k8s.io/node': 'fake', 'node.alpha.kubernetes.io/ttl': '0' },
          labels: {
            type: 'kwok',
            'kubernetes.io/hostname': node,
            'kubernetes.io/os': 'linux',
            'kubernetes.io/arch': 'amd64',
          },
        },
      });
      if (response.status >= 300)
        throw new Error(`could not create the node ${node}: ${JSON.stringify(response.body)}`);
    }
    let portTaken: string | undefined;
    for (const node of nodes) {
      await eventually(
        async () => {
          // A component that could not bind its port never gets ready: stop waiting for it.
          portTaken ??= await portTakenLine(clusterDir);
          if (portTaken !== undefined) return true;
          const response = await kubeRequest(config, 'GET', `/api/v1/nodes/${node}`);
          const conditions =
            (response.body as { status?: { conditions?: Array<{ type: string; status: string }> } })
              .status?.conditions ?? [];
          return conditions.some((c) => c.type === 'Ready' && c.status === 'True');
        },
        {
          timeoutMs,
          description: `kwok node ${node} Ready`,
        },
      );
    }
    if (portTaken !== undefined)
      throw new PortTakenError(`a component of cluster ${name} found its port taken: ${portTaken}`);
    return { kubeconfig, name, workdir, nodes, stop };
  } catch (error) {
    // The components' last words, read before stop() removes them.
    const logs = await lastLogLines(clusterDir);
    const portTaken = await portTakenLine(clusterDir);
    await stop();
    if (portTaken !== undefined && !(error instanceof PortTakenError))
      throw new PortTakenError(
        `a component of cluster ${name} found its port taken: ${portTaken}`,
        {
          cause: error,
        },
      );
    if (error instanceof Error && logs)
      error.message += `\nThe components' last log lines:\n${logs}`;
    throw error;
  }
}
