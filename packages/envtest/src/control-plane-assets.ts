import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, open, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ControlPlaneAssetsError } from './errors/control-plane-assets-error.js';

/** The Go modules this package builds the control plane from (`go/` beside `src/` and `dist/`). */
const goModulesDirectory = fileURLToPath(new URL('../go/', import.meta.url));

/** The binaries of the real control plane, all in one directory (setup-envtest's layout). */
export const controlPlaneBinaries = [
  'etcd',
  'kube-apiserver',
  'kube-controller-manager',
  'kube-scheduler',
  'kwok',
  'kwokctl',
] as const;

/** The pinned versions, as the Go modules under `go/` require them (without the leading `v`). */
export interface ControlPlaneVersions {
  kubernetes: string;
  etcd: string;
  kwok: string;
}

/**
 * The folders under `go/` of each Kubernetes release the project supports, newest first: the
 * newest is the default. A release names the module of each component; kwok is shared (it
 * drives any supported kube-apiserver through its API). The newest's folders keep their
 * original names, so its digest, and with it the cached build, is the one it always was.
 */
const releaseModules: readonly Readonly<Record<keyof ControlPlaneVersions, string>>[] = [
  { etcd: 'etcd', kubernetes: 'kubernetes', kwok: 'kwok' },
  { etcd: 'etcd-3.6', kubernetes: 'kubernetes-1.35', kwok: 'kwok' },
];

/** One pinned release: its versions and the digest of its Go modules' files. */
export interface PinnedControlPlane {
  versions: ControlPlaneVersions;
  /** Names the build: the binaries are rebuilt when it changes. */
  digest: string;
  /** The folder under `go/` of each component's Go module. */
  modules: Readonly<Record<keyof ControlPlaneVersions, string>>;
}

/**
 * The environment variable that picks the Kubernetes release of the real planes when no
 * option does: a pinned minor (`1.35`) or exact version (`1.35.4`). Unset or empty: the newest.
 */
export const kubernetesVersionVariable = 'OPS_ENVTEST_KUBERNETES_VERSION';

/** Options of {@link ensureControlPlaneAssets}. */
export interface ControlPlaneAssetsOptions {
  /**
   * Where binaries and Go's caches go: `<cacheDirectory>/kube/<version>-<os>-<arch>/` and
   * `<cacheDirectory>/go/{mod,build}`. Default: {@link defaultCacheDirectory} (the user's
   * cache, shared by every clone of the repository).
   */
  cacheDirectory?: string;
  /**
   * The Kubernetes release to find or build: a pinned minor (`1.35`) or exact version
   * (`1.35.4`). Default: `OPS_ENVTEST_KUBERNETES_VERSION`, else the newest pinned release.
   */
  kubernetes?: string;
  /** The go command (default: `go` on PATH, else `/usr/local/go/bin/go`). */
  go?: string;
  /** Progress lines (default: written to stderr, prefixed with `control-plane: `). */
  log?: (line: string) => void;
  /** Rebuild even when the cached binaries match the pinned versions. */
  force?: boolean;
  /** Seconds between "still building" lines while go runs (default 30). */
  heartbeatSeconds?: number;
}

/** What {@link ensureControlPlaneAssets} found or built. */
export interface ControlPlaneAssets {
  /** The directory with every binary of {@link controlPlaneBinaries}: a `KUBEBUILDER_ASSETS`. */
  directory: string;
  versions: ControlPlaneVersions;
  /** Whether this call built them (false: reused from the cache). */
  built: boolean;
  /** Seconds this call took. */
  seconds: number;
}

/** The message for a machine that cannot build: what to install, or what to use instead. */
export function missingGoMessage(problem: string, versions: ControlPlaneVersions): string {
  const minor = versions.kubernetes.split('.').slice(0, 2).join('.');
  return (
    `${problem}. The real control plane (etcd ${versions.etcd}, Kubernetes ${versions.kubernetes}) ` +
    `is built from its Go modules: install Go ${requiredGo} or newer (https://go.dev/dl, or your ` +
    `package manager) with access to a Go module proxy, and run this again; or, on a machine with ` +
    `internet access, download envtest's binaries with \`go run sigs.k8s.io/controller-runtime/tools/setup-envtest@latest use ${minor}.x -p path\` ` +
    `and set KUBEBUILDER_ASSETS to the directory it prints (it holds etcd and kube-apiserver); ` +
    `or use the local API server (OPS_ENVTEST_CONTROL_PLANE=local).`
  );
}

/** The oldest Go that builds the pinned modules (their `go` lines). */
const requiredGo = '1.26.0';

function requireLine(folder: string, goMod: string | undefined, module: string): string {
  const match = new RegExp(
    `^\\s*(?:require\\s+)?${module.replaceAll('.', '\\.')}\\s+v(\\S+)`,
    'm',
  ).exec(goMod ?? '');
  if (!match?.[1])
    throw new Error(
      `${join(goModulesDirectory, folder)}: no "require ${module}" in go.mod; restore it from git`,
    );
  return match[1];
}

async function readRelease(
  modules: Readonly<Record<keyof ControlPlaneVersions, string>>,
): Promise<PinnedControlPlane> {
  const hash = createHash('sha256');
  const text: Partial<Record<keyof ControlPlaneVersions, string>> = {};
  for (const component of ['etcd', 'kubernetes', 'kwok'] as const) {
    for (const file of ['go.mod', 'go.sum', 'main.go']) {
      const path = join(goModulesDirectory, modules[component], file);
      if (!existsSync(path)) continue;
      const content = await readFile(path, 'utf8');
      if (file === 'go.mod') text[component] = content;
      // Hashed under the component's name, not the folder's: the newest release's digest is
      // the one it had before there was more than one release.
      hash.update(`${component}/${file}\0${content}\0`);
    }
  }
  const versions = {
    kubernetes: requireLine(modules.kubernetes, text.kubernetes, 'k8s.io/kubernetes'),
    etcd: requireLine(modules.etcd, text.etcd, 'go.etcd.io/etcd/server/v3'),
    kwok: requireLine(modules.kwok, text.kwok, 'sigs.k8s.io/kwok'),
  };
  hash.update(JSON.stringify(versions));
  return { versions, digest: hash.digest('hex').slice(0, 16), modules };
}

/**
 * Every pinned release, newest first (the first is the default): the versions its Go modules
 * under `go/` pin, read from their go.mod files, and a digest of every go.mod, go.sum and
 * main.go, which names a build.
 *
 * @throws {Error} when a go.mod lacks the `require` of its component (restore it from git).
 */
export async function pinnedControlPlanes(): Promise<PinnedControlPlane[]> {
  const releases = await Promise.all(releaseModules.map(readRelease));
  return releases.sort((a, b) => compareVersions(b.versions.kubernetes, a.versions.kubernetes));
}

/**
 * The pinned release `kubernetes` names: a minor (`1.35`) or an exact pinned version
 * (`1.35.4`), with or without a leading `v`; default `OPS_ENVTEST_KUBERNETES_VERSION` of `env`,
 * else the newest (see {@link pinnedControlPlanes}).
 *
 * @throws {ControlPlaneAssetsError} when no pinned release matches, naming the pinned ones.
 */
export async function pinnedControlPlane(
  kubernetes?: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<PinnedControlPlane> {
  const releases = await pinnedControlPlanes();
  const fromVariable = kubernetes === undefined && Boolean(env[kubernetesVersionVariable]);
  const wanted = (kubernetes ?? (env[kubernetesVersionVariable] || '')).trim().replace(/^v/, '');
  const newest = releases[0];
  if (wanted === '' && newest) return newest;
  const found = releases.find(
    ({ versions }) =>
      versions.kubernetes === wanted || versions.kubernetes.startsWith(`${wanted}.`),
  );
  if (found && /^\d+\.\d+(\.\d+)?$/.test(wanted)) return found;
  const pinned = releases
    .map(({ versions }) => `${minorOf(versions.kubernetes)} (${versions.kubernetes})`)
    .join(', ');
  throw new ControlPlaneAssetsError(
    `${fromVariable ? `${kubernetesVersionVariable}=${wanted}` : `Kubernetes "${wanted}"`} is not a ` +
      `pinned release: use one of ${pinned}, as a minor (1.35) or the exact version${
        fromVariable ? ', or unset the variable for the newest' : ''
      }. Another release needs its Go modules under packages/envtest/go (see its README).`,
  );
}

function minorOf(version: string): string {
  return version.split('.').slice(0, 2).join('.');
}

/**
 * The default cache root: `OPS_CONTROL_PLANE_CACHE` when set, else the user's cache directory
 * (`$XDG_CACHE_HOME/ops`, or `~/.cache/ops` when XDG_CACHE_HOME is unset or not absolute), as
 * setup-envtest keeps its binaries per user: every clone and worktree on the machine reuses one
 * build of each release.
 */
export function defaultCacheDirectory(env: NodeJS.ProcessEnv = process.env): string {
  if (env.OPS_CONTROL_PLANE_CACHE) return resolve(env.OPS_CONTROL_PLANE_CACHE);
  const xdg = env.XDG_CACHE_HOME;
  if (xdg && isAbsolute(xdg)) return join(xdg, 'ops');
  return join(homedir(), '.cache', 'ops');
}

interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<RunResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-20_000);
    });
    child.once('error', reject);
    child.once('close', (code) => resolvePromise({ code, stdout, stderr }));
  });
}

function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map((part) => Number.parseInt(part, 10) || 0);
  const pb = b.split('.').map((part) => Number.parseInt(part, 10) || 0);
  for (let i = 0; i < 3; i++) {
    const diff = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (diff !== 0) return diff;
  }
  return 0;
}

/** Finds a usable go command, or throws the message of {@link missingGoMessage}. */
async function findGo(
  preferred: string | undefined,
  versions: ControlPlaneVersions,
): Promise<{ go: string; version: string }> {
  const candidates = preferred ? [preferred] : ['go', '/usr/local/go/bin/go'];
  for (const go of candidates) {
    let result: RunResult;
    try {
      result = await run(go, ['env', 'GOVERSION'], {
        env: { ...process.env, GOTOOLCHAIN: process.env.GOTOOLCHAIN ?? 'local' },
      });
    } catch {
      continue;
    }
    const version = /^go(\d+\.\d+(?:\.\d+)?)/.exec(result.stdout.trim())?.[1];
    if (result.code !== 0 || !version) continue;
    if (!process.env.GOTOOLCHAIN && compareVersions(version, requiredGo) < 0)
      throw new ControlPlaneAssetsError(
        missingGoMessage(
          `${go} is Go ${version}, older than the ${requiredGo} they need`,
          versions,
        ),
      );
    return { go, version };
  }
  throw new ControlPlaneAssetsError(
    missingGoMessage(
      preferred
        ? `${preferred} is not a working go command`
        : 'Go is not installed (no go on PATH)',
      versions,
    ),
  );
}

function formatSeconds(seconds: number): string {
  return seconds < 90 ? `${seconds.toFixed(0)} s` : `${(seconds / 60).toFixed(1)} min`;
}

async function acquireLock(
  lock: string,
  log: (line: string) => void,
): Promise<() => Promise<void>> {
  let announced = false;
  for (;;) {
    try {
      const handle = await open(lock, 'wx');
      await handle.writeFile(String(process.pid));
      await handle.close();
      return () => rm(lock, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = Number.parseInt(await readFile(lock, 'utf8').catch(() => ''), 10);
    let alive = false;
    if (owner > 0) {
      try {
        process.kill(owner, 0);
        alive = true;
      } catch (error) {
        alive = (error as NodeJS.ErrnoException).code === 'EPERM';
      }
    }
    if (!alive && owner > 0) {
      await rm(lock, { force: true });
      continue;
    }
    if (!announced) {
      log(`waiting for the build that process ${owner || '?'} is running (${lock})`);
      announced = true;
    }
    await new Promise((done) => setTimeout(done, 1000));
  }
}

interface Component {
  module: keyof ControlPlaneVersions;
  packages: string[];
  binaries: string[];
  ldflags(versions: ControlPlaneVersions, buildDate: string): string[];
}

/** What `hack/lib/version.sh` stamps into a Kubernetes build, so `kubectl version` shows it. */
function kubernetesVersionFlags(versions: ControlPlaneVersions, buildDate: string): string[] {
  const [major = '', minor = ''] = versions.kubernetes.split('.');
  return ['k8s.io/component-base/version', 'k8s.io/client-go/pkg/version'].flatMap((pkg) => [
    `-X ${pkg}.gitVersion=v${versions.kubernetes}`,
    `-X ${pkg}.gitMajor=${major}`,
    `-X ${pkg}.gitMinor=${minor}`,
    `-X ${pkg}.gitTreeState=archive`,
    `-X ${pkg}.buildDate=${buildDate}`,
  ]);
}

const components: Component[] = [
  {
    module: 'etcd',
    packages: ['.'],
    binaries: ['etcd'],
    ldflags: () => [],
  },
  {
    module: 'kubernetes',
    packages: [
      'k8s.io/kubernetes/cmd/kube-apiserver',
      'k8s.io/kubernetes/cmd/kube-controller-manager',
      'k8s.io/kubernetes/cmd/kube-scheduler',
    ],
    binaries: ['kube-apiserver', 'kube-controller-manager', 'kube-scheduler'],
    ldflags: kubernetesVersionFlags,
  },
  {
    module: 'kwok',
    packages: ['sigs.k8s.io/kwok/cmd/kwok', 'sigs.k8s.io/kwok/cmd/kwokctl'],
    binaries: ['kwok', 'kwokctl'],
    ldflags: (versions) => [
      `-X sigs.k8s.io/kwok/pkg/consts.Version=${versions.kwok}`,
      `-X sigs.k8s.io/kwok/pkg/consts.KubeVersion=${versions.kubernetes}`,
    ],
  },
];

interface Stamp {
  digest: string;
  versions: ControlPlaneVersions;
  go: string;
  builtAt: string;
  buildSeconds: number;
}

async function readStamp(path: string): Promise<Stamp | undefined> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as Stamp;
  } catch {
    return undefined;
  }
}

/**
 * The real control plane's binaries (etcd, kube-apiserver, kube-controller-manager,
 * kube-scheduler, kwok, kwokctl) of one pinned release (`kubernetes`, default
 * `OPS_ENVTEST_KUBERNETES_VERSION`, else the newest: see {@link pinnedControlPlane}) at the
 * versions pinned by its Go modules under this package's `go/`: reused from the cache when they were built from the same go.mod/go.sum files, built
 * with the go command otherwise (sequentially: one `go build` already uses every core), into
 * `<cache>/kube/<kubernetes version>-<os>-<arch>/`, the directory layout of setup-envtest, so
 * the result works as `KUBEBUILDER_ASSETS`. Go's module and build caches live under
 * `<cache>/go`. Concurrent callers (test workers) wait for one build through a lock file.
 *
 * @throws {ControlPlaneAssetsError} when the release is not pinned (naming those that are),
 *   when Go is missing or too old (the message says what to install, or to use
 *   setup-envtest's binaries through KUBEBUILDER_ASSETS), or when `go build` fails (quoting
 *   its output).
 */
export async function ensureControlPlaneAssets(
  options: ControlPlaneAssetsOptions = {},
): Promise<ControlPlaneAssets> {
  const started = Date.now();
  const log = options.log ?? ((line: string) => process.stderr.write(`control-plane: ${line}\n`));
  const { versions, digest, modules } = await pinnedControlPlane(options.kubernetes);
  const cache = resolve(options.cacheDirectory ?? defaultCacheDirectory());
  const platform = `${process.platform}-${process.arch === 'x64' ? 'amd64' : process.arch}`;
  const directory = join(cache, 'kube', `${versions.kubernetes}-${platform}`);
  const stampPath = join(directory, 'ops-control-plane.json');
  const summary = `Kubernetes ${versions.kubernetes}, etcd ${versions.etcd}, kwok ${versions.kwok}`;

  const upToDate = async () => {
    const stamp = await readStamp(stampPath);
    return (
      stamp?.digest === digest &&
      controlPlaneBinaries.every((binary) => existsSync(join(directory, binary)))
    );
  };
  if (!options.force && (await upToDate())) {
    log(`using ${summary} from ${directory}`);
    return { directory, versions, built: false, seconds: (Date.now() - started) / 1000 };
  }

  const { go, version: goVersion } = await findGo(options.go, versions);
  await mkdir(join(cache, 'kube'), { recursive: true });
  const release = await acquireLock(`${directory}.lock`, log);
  try {
    if (!options.force && (await upToDate())) {
      log(`using ${summary} from ${directory} (built by another process)`);
      return { directory, versions, built: false, seconds: (Date.now() - started) / 1000 };
    }
    const partial = `${directory}.partial`;
    await rm(partial, { recursive: true, force: true });
    await mkdir(partial, { recursive: true });
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      GOMODCACHE: join(cache, 'go', 'mod'),
      GOCACHE: join(cache, 'go', 'build'),
      GOTOOLCHAIN: process.env.GOTOOLCHAIN ?? 'local',
      GOFLAGS: '-mod=readonly -buildvcs=false',
      CGO_ENABLED: '0',
    };
    const coldCache = !existsSync(join(cache, 'go', 'build'));
    log(
      `building ${summary} with Go ${goVersion} into ${directory}` +
        (coldCache
          ? ' (first build with empty Go caches: 8 to 19 min on 2 cores, as busy as they are; later builds reuse them)'
          : ''),
    );
    const buildDate = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    for (const component of components) {
      const what = component.binaries.join(', ');
      const t0 = Date.now();
      log(`go build ${what} ...`);
      const heartbeat = setInterval(
        () => log(`  still building ${what} (${formatSeconds((Date.now() - t0) / 1000)})`),
        (options.heartbeatSeconds ?? 30) * 1000,
      );
      let result: RunResult;
      try {
        result = await run(
          go,
          [
            'build',
            '-trimpath',
            '-ldflags',
            ['-s', '-w', ...component.ldflags(versions, buildDate)].join(' '),
            '-o',
            // One package: name its binary, which would otherwise take the name of its module's
            // folder (etcd-3.6). Several: go names each after its package (kube-apiserver, ...).
            component.packages.length === 1 && component.binaries.length === 1
              ? join(partial, component.binaries[0] ?? '')
              : `${partial}/`,
            ...component.packages,
          ],
          { cwd: join(goModulesDirectory, modules[component.module]), env },
        );
      } finally {
        clearInterval(heartbeat);
      }
      if (result.code !== 0) {
        throw new ControlPlaneAssetsError(
          `go build of ${what} (${join(goModulesDirectory, modules[component.module])}) failed with exit code ${result.code}:\n` +
            `${result.stderr.trim().slice(-4000)}\n` +
            'Fix the Go module (go.mod/go.sum) or the Go installation, or set KUBEBUILDER_ASSETS to binaries from setup-envtest.',
        );
      }
      log(`built ${what} in ${formatSeconds((Date.now() - t0) / 1000)}`);
    }
    const buildSeconds = (Date.now() - started) / 1000;
    const stamp: Stamp = {
      digest,
      versions,
      go: goVersion,
      builtAt: buildDate,
      buildSeconds: Math.round(buildSeconds),
    };
    await writeFile(join(partial, 'ops-control-plane.json'), `${JSON.stringify(stamp, null, 2)}\n`);
    await rm(directory, { recursive: true, force: true });
    await rename(partial, directory);
    log(`${summary} ready in ${directory} (${formatSeconds(buildSeconds)})`);
    return { directory, versions, built: true, seconds: buildSeconds };
  } finally {
    await release();
  }
}
