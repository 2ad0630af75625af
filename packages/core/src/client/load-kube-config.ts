import { existsSync, readFileSync, statSync } from 'node:fs';
import { isIPv6 } from 'node:net';
import { homedir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { type Cluster, type Context, KubeConfig, type User } from '@kubernetes/client-node';
import { KubeConfigError } from '../errors/kube-config-error.js';

/** The directory Kubernetes mounts a pod's service account token, CA and namespace into. */
export const defaultServiceAccountDir = '/var/run/secrets/kubernetes.io/serviceaccount';

/** Options of {@link loadKubeConfig}. */
export interface LoadKubeConfigOptions {
  /** A kubeconfig path given explicitly (the operator's `--kubeconfig` flag); must exist. */
  kubeconfig?: string;
  /** The context to use instead of the configuration's current context. */
  context?: string;
  /** Environment to read `KUBECONFIG`, `HOME` and `KUBERNETES_SERVICE_*` from (default `process.env`). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Home directory holding `.kube/config` (default `HOME` of `env`, else `os.homedir()`). */
  homeDir?: string;
  /** Where the service account's `token`, `ca.crt` and `namespace` are (default {@link defaultServiceAccountDir}). */
  serviceAccountDir?: string;
}

const isFile = (path: string): boolean => {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
};

function readKubeconfigFile(path: string, tried: readonly string[]): KubeConfig {
  const config = new KubeConfig();
  try {
    if (readFileSync(path, 'utf8').trim() === '') return config;
    config.loadFromFile(path);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new KubeConfigError(
      'InvalidConfig',
      `kubeconfig ${path} is not a valid kubeconfig: ${why}; fix the file (kubectl --kubeconfig ${path} config view shows what kubectl reads)`,
      tried,
      { cause: error },
    );
  }
  return config;
}

/** Merges kubeconfigs as kubectl does: the first file to set a value (or define a name) wins. */
function mergeKubeconfigs(configs: readonly KubeConfig[]): KubeConfig {
  const clusters = new Map<string, Cluster>();
  const users = new Map<string, User>();
  const contexts = new Map<string, Context>();
  let currentContext = '';
  for (const config of configs) {
    for (const cluster of config.getClusters()) {
      if (!clusters.has(cluster.name)) clusters.set(cluster.name, cluster);
    }
    for (const user of config.getUsers()) if (!users.has(user.name)) users.set(user.name, user);
    for (const context of config.getContexts()) {
      if (!contexts.has(context.name)) contexts.set(context.name, context);
    }
    if (!currentContext && config.getCurrentContext()) currentContext = config.getCurrentContext();
  }
  const merged = new KubeConfig();
  merged.loadFromOptions({
    clusters: [...clusters.values()],
    users: [...users.values()],
    contexts: [...contexts.values()],
    currentContext,
  });
  return merged;
}

/** The in-cluster configuration, as client-go's `rest.InClusterConfig`, or undefined when not in a pod. */
function inClusterConfig(
  env: LoadKubeConfigOptions['env'] & object,
  dir: string,
): KubeConfig | undefined {
  const host = env.KUBERNETES_SERVICE_HOST;
  const port = env.KUBERNETES_SERVICE_PORT;
  const tokenFile = join(dir, 'token');
  if (!host || !port || !isFile(tokenFile)) return undefined;
  const caFile = join(dir, 'ca.crt');
  const namespaceFile = join(dir, 'namespace');
  const namespace = isFile(namespaceFile) ? readFileSync(namespaceFile, 'utf8').trim() : undefined;
  const server = `https://${isIPv6(host) ? `[${host}]` : host}:${port}`;
  const config = new KubeConfig();
  config.loadFromOptions({
    clusters: [
      { name: 'inCluster', server, skipTLSVerify: false, ...(isFile(caFile) ? { caFile } : {}) },
    ],
    // The tokenFile provider rereads the projected token as the kubelet rotates it.
    users: [{ name: 'inClusterUser', authProvider: { name: 'tokenFile', config: { tokenFile } } }],
    contexts: [
      {
        name: 'inClusterContext',
        cluster: 'inCluster',
        user: 'inClusterUser',
        ...(namespace ? { namespace } : {}),
      },
    ],
    currentContext: 'inClusterContext',
  });
  return config;
}

function selectContext(config: KubeConfig, wanted: string | undefined, tried: string[]): void {
  const names = config.getContexts().map((context) => context.name);
  const available = names.length > 0 ? names.join(', ') : 'none';
  if (wanted !== undefined) {
    if (!names.includes(wanted)) {
      throw new KubeConfigError(
        'ContextNotFound',
        `context "${wanted}" is not in the kubeconfig (${tried.join(', ')}); available contexts: ${available}. Pick one of them (kubectl config get-contexts lists them)`,
        tried,
      );
    }
    config.setCurrentContext(wanted);
  }
  const current = config.getCurrentContext();
  if (!current) {
    throw new KubeConfigError(
      'ContextNotFound',
      `the kubeconfig (${tried.join(', ')}) sets no current-context; run kubectl config use-context NAME or pass a context (available: ${available})`,
      tried,
    );
  }
  const context = config.getContextObject(current);
  if (context === null) {
    throw new KubeConfigError(
      'ContextNotFound',
      `the current context "${current}" is not defined in the kubeconfig (${tried.join(', ')}); available contexts: ${available}. Run kubectl config use-context NAME`,
      tried,
    );
  }
  if (config.getCluster(context.cluster) === null) {
    throw new KubeConfigError(
      'ContextNotFound',
      `context "${current}" names cluster "${context.cluster}", which the kubeconfig (${tried.join(', ')}) does not define; add the cluster (kubectl config set-cluster) or fix the context`,
      tried,
    );
  }
}

/**
 * Finds the client configuration as kubectl does and loads it through client-node's
 * `KubeConfig`, so exec plugins, OIDC, token files and client certificates work:
 *
 * 1. `options.kubeconfig` (the `--kubeconfig` flag): must exist;
 * 2. else `KUBECONFIG`: a list of paths separated by `:` (`;` on Windows), missing files
 *    skipped, merged with the first file to define a name or set `current-context` winning;
 *    when `KUBECONFIG` is set, `~/.kube/config` is not read, as with kubectl;
 * 3. else `~/.kube/config`;
 * 4. else, in a pod, the service account: `KUBERNETES_SERVICE_HOST`/`PORT`, and `token`,
 *    `ca.crt`, `namespace` under `serviceAccountDir` (the token is reread as it rotates).
 *
 * Relative paths inside a kubeconfig resolve against the file's directory. `options.context`
 * replaces the current context. The result names a current context and its cluster.
 *
 * @throws {KubeConfigError} `FileNotFound` when the explicit file is missing; `InvalidConfig`
 *   when a file cannot be parsed; `NoConfiguration` when nothing was found (the message lists
 *   every place searched); `ContextNotFound` when the context is unknown or incomplete.
 */
export function loadKubeConfig(options: LoadKubeConfigOptions = {}): KubeConfig {
  const env = options.env ?? process.env;
  const tried: string[] = [];
  let config: KubeConfig | undefined;

  if (options.kubeconfig !== undefined && options.kubeconfig !== '') {
    const path = resolve(options.kubeconfig);
    tried.push(path);
    if (!isFile(path)) {
      throw new KubeConfigError(
        'FileNotFound',
        `kubeconfig ${path} (given with --kubeconfig) does not exist or is not a file; pass the path of an existing kubeconfig, or leave the flag out to use KUBECONFIG, ~/.kube/config or the in-cluster service account`,
        tried,
      );
    }
    config = readKubeconfigFile(path, tried);
  } else if (env.KUBECONFIG) {
    const paths = env.KUBECONFIG.split(delimiter).filter((path) => path !== '');
    const found: KubeConfig[] = [];
    for (const path of paths.map((path) => resolve(path))) {
      tried.push(path);
      if (isFile(path)) found.push(readKubeconfigFile(path, tried));
    }
    if (found.length > 0) config = mergeKubeconfigs(found);
  } else {
    const home = options.homeDir ?? env.HOME ?? homedir();
    const path = join(home, '.kube', 'config');
    tried.push(path);
    if (isFile(path)) config = readKubeconfigFile(path, tried);
  }

  const explicit = options.kubeconfig !== undefined && options.kubeconfig !== '';
  if (!explicit && (config === undefined || config.getContexts().length === 0)) {
    const dir = options.serviceAccountDir ?? defaultServiceAccountDir;
    tried.push(
      `in-cluster (KUBERNETES_SERVICE_HOST, KUBERNETES_SERVICE_PORT, ${join(dir, 'token')})`,
    );
    const inCluster = inClusterConfig(env, dir);
    if (inCluster === undefined) {
      const missingEnv = !env.KUBERNETES_SERVICE_HOST || !env.KUBERNETES_SERVICE_PORT;
      const inClusterWhy = missingEnv
        ? 'KUBERNETES_SERVICE_HOST/KUBERNETES_SERVICE_PORT are not set'
        : existsSync(dir)
          ? `${join(dir, 'token')} is missing`
          : `${dir} does not exist`;
      throw new KubeConfigError(
        'NoConfiguration',
        `no Kubernetes client configuration found; tried ${tried.join(', ')} (not in a cluster: ${inClusterWhy}). Pass --kubeconfig PATH, set KUBECONFIG, create ~/.kube/config (e.g. kind or minikube write one), or run in a pod with a service account`,
        tried,
      );
    }
    config = inCluster;
  }
  const loaded = config ?? new KubeConfig();
  selectContext(loaded, options.context, tried);
  return loaded;
}
