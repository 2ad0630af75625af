/**
 * What differs between operators, read from the operator's own declarations: its
 * package.json (name, version), config/default/kustomization.yaml (namespace, namePrefix),
 * config/webhook/manifests.yaml (the webhook configurations and their Service) and
 * config/manager/manager.yaml (the Secret the manager mounts its serving certificate from).
 * Nothing here is configured per operator: the kubebuilder layout is the contract.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import YAML from 'yaml';
import { OperatorCliError } from './errors/operator-cli-error.js';
import { type K8sObject, parseYamlStream } from './kubectl.js';

/** The webhook objects config/default names, after its namespace and namePrefix. */
export interface OperatorWebhooks {
  /**
   * The Service the webhook configurations (or the CRDs' conversion webhooks) call, e.g.
   * `application-operator-webhook-service`.
   */
  service: string;
  /** The Secret (type kubernetes.io/tls) the manager mounts its serving certificate from. */
  secret: string;
  /** The MutatingWebhookConfiguration, when the operator has mutating webhooks. */
  mutatingConfiguration?: string;
  /** The ValidatingWebhookConfiguration, when the operator has validating webhooks. */
  validatingConfiguration?: string;
  /**
   * The CustomResourceDefinitions of config/crd/bases whose versions convert through the
   * webhook (`spec.conversion.strategy: Webhook`), by name (kustomize does not prefix CRDs),
   * sorted; empty when none does.
   */
  conversionCrds: string[];
}

/** An operator directory and the values derived from its declarations. */
export interface OperatorProject {
  /** The operator's directory (holds package.json and config/). */
  root: string;
  /** package.json `name`, e.g. `application-operator` or `@acme/db-operator`. */
  packageName: string;
  /** The name without an npm scope: image name, `app.kubernetes.io/name` label, builder name. */
  name: string;
  /** package.json `version`. */
  version: string;
  /** The Docker build context: the workspace root (pnpm-workspace.yaml), else {@link root}. */
  buildContext: string;
  /**
   * The Dockerfile the image is built from: the operator's own `<root>/Dockerfile` when it has
   * one; else, for an operator at `operators/<directory>` of a workspace that has the shared
   * `operators/Dockerfile`, that one (built with {@link dockerBuildArgs}); else
   * `<root>/Dockerfile` (which docker then reports missing).
   */
  dockerfile: string;
  /**
   * The `--build-arg`s the Dockerfile takes: `{ OPERATOR: <directory> }` for the shared
   * `operators/Dockerfile`, none for an operator's own.
   */
  dockerBuildArgs: Readonly<Record<string, string>>;
  /** The image when IMG is not set: `<name>:latest`. */
  defaultImage: string;
  /** config/default's `namespace`, e.g. `application-operator-system`. */
  namespace: string;
  /** config/default's `namePrefix`, e.g. `application-operator-` (may be empty). */
  namePrefix: string;
  /**
   * The webhook objects, or undefined when config/webhook/manifests.yaml declares none and no
   * CRD of config/crd/bases has a conversion webhook (whose Service is config/webhook/service.yaml).
   */
  webhooks: OperatorWebhooks | undefined;
  /** Where `run` keeps local serving certificates: `<root>/.cache/k8s-webhook-server/serving-certs`. */
  localCertDir: string;
}

/** The file that marks an operator directory (with package.json). */
export const operatorMarker = join('config', 'default', 'kustomization.yaml');

/**
 * The nearest directory from `start` upwards that holds package.json and
 * config/default/kustomization.yaml.
 *
 * @throws {OperatorCliError} when there is none, saying where to run from.
 */
export function findOperatorRoot(start: string): string {
  const found = findUpwards(
    start,
    (directory) =>
      existsSync(join(directory, 'package.json')) && existsSync(join(directory, operatorMarker)),
  );
  if (found === undefined) {
    throw new OperatorCliError(
      `${resolve(start)} is not in an operator directory (none of it or its parents has package.json and ${operatorMarker}). Run ops-operator from the operator's directory (e.g. cd operators/application-operator), through its package.json scripts (pnpm run deploy), or pass --dir <operator directory>.`,
    );
  }
  return found;
}

/**
 * Reads the operator at `root` (see the file's comment for what comes from where).
 *
 * @throws {OperatorCliError} when package.json has no name or version, config/default sets
 * no namespace, or webhooks are declared but their Service or the manager's certificate
 * Secret cannot be found; each message names the file and the field to add.
 */
export function readOperatorProject(root: string): OperatorProject {
  const manifest = readYaml(root, 'package.json') as { name?: unknown; version?: unknown };
  if (typeof manifest.name !== 'string' || manifest.name === '') {
    throw new OperatorCliError(`${join(root, 'package.json')} has no "name": add one.`);
  }
  if (typeof manifest.version !== 'string' || manifest.version === '') {
    throw new OperatorCliError(`${join(root, 'package.json')} has no "version": add one.`);
  }
  const name = manifest.name.replace(/^@[^/]+\//, '');
  const kustomization = (readYaml(root, operatorMarker) ?? {}) as K8sObject;
  if (typeof kustomization.namespace !== 'string' || kustomization.namespace === '') {
    throw new OperatorCliError(
      `${join(root, operatorMarker)} sets no \`namespace\`: add \`namespace: ${name}-system\` (every namespaced object of the operator goes there).`,
    );
  }
  const namePrefix = typeof kustomization.namePrefix === 'string' ? kustomization.namePrefix : '';
  const buildContext =
    findUpwards(root, (directory) => existsSync(join(directory, 'pnpm-workspace.yaml'))) ?? root;
  return {
    root,
    packageName: manifest.name,
    name,
    version: manifest.version,
    buildContext,
    ...operatorDockerfile(root, buildContext),
    defaultImage: `${name}:latest`,
    namespace: kustomization.namespace,
    namePrefix,
    webhooks: readWebhooks(root, namePrefix),
    localCertDir: join(root, '.cache', 'k8s-webhook-server', 'serving-certs'),
  };
}

/** The name of the Dockerfile every operator of a workspace shares, in its operators/ directory. */
export const sharedDockerfile = join('operators', 'Dockerfile');

/**
 * The Dockerfile of the operator at `root` and its build arguments (see
 * {@link OperatorProject.dockerfile}).
 */
function operatorDockerfile(
  root: string,
  buildContext: string,
): Pick<OperatorProject, 'dockerfile' | 'dockerBuildArgs'> {
  const own = join(root, 'Dockerfile');
  const shared = join(buildContext, sharedDockerfile);
  const inOperators = resolve(dirname(root)) === resolve(buildContext, 'operators');
  if (!existsSync(own) && inOperators && existsSync(shared)) {
    return { dockerfile: shared, dockerBuildArgs: { OPERATOR: basename(root) } };
  }
  return { dockerfile: own, dockerBuildArgs: {} };
}

/** {@link readOperatorProject} of {@link findOperatorRoot}(`start`). */
export function loadOperatorProject(start: string): OperatorProject {
  return readOperatorProject(findOperatorRoot(start));
}

/** The DNS names the API server checks the webhook's certificate against. */
export function webhookServiceDnsNames(service: string, namespace: string): string[] {
  return [`${service}.${namespace}.svc`, `${service}.${namespace}.svc.cluster.local`];
}

/** The operator's webhooks, or fails with what to do when they are needed but absent. */
export function requireWebhooks(project: OperatorProject): OperatorWebhooks {
  if (project.webhooks === undefined) {
    throw new OperatorCliError(
      `${project.name} declares no admission webhooks (no webhook configuration in ${join(project.root, 'config', 'webhook', 'manifests.yaml')}), so there is nothing to do.`,
    );
  }
  return project.webhooks;
}

const webhookManifests = join('config', 'webhook', 'manifests.yaml');
const managerManifest = join('config', 'manager', 'manager.yaml');

const webhookService = join('config', 'webhook', 'service.yaml');

/**
 * The webhooks of config/webhook: its admission webhook configurations (manifests.yaml) and
 * the Service they call; or, for an operator whose only webhook is a CRD conversion webhook
 * (no configuration, the CRD names the Service), the Service of service.yaml alone.
 */
function readWebhooks(root: string, namePrefix: string): OperatorWebhooks | undefined {
  const objects = existsSync(join(root, webhookManifests))
    ? parseYamlStream(readFileSync(join(root, webhookManifests), 'utf8'))
    : [];
  const configuration = (kind: string) =>
    objects.find((object) => object.kind === kind)?.metadata?.name as string | undefined;
  const mutating = configuration('MutatingWebhookConfiguration');
  const validating = configuration('ValidatingWebhookConfiguration');
  if (mutating === undefined && validating === undefined) {
    return conversionOnlyWebhooks(root, namePrefix);
  }
  const service = objects
    .flatMap((object) => (Array.isArray(object.webhooks) ? object.webhooks : []))
    .map((webhook: K8sObject) => webhook.clientConfig?.service?.name)
    .find((name: unknown): name is string => typeof name === 'string');
  if (service === undefined) {
    throw new OperatorCliError(
      `${join(root, webhookManifests)}: no webhook has clientConfig.service.name; point the webhooks at the webhook Service (kubebuilder: webhook-service).`,
    );
  }
  const webhooks: OperatorWebhooks = {
    service: `${namePrefix}${service}`,
    secret: servingCertificateSecret(root),
    conversionCrds: conversionCrdNames(root),
  };
  if (mutating !== undefined) webhooks.mutatingConfiguration = `${namePrefix}${mutating}`;
  if (validating !== undefined) webhooks.validatingConfiguration = `${namePrefix}${validating}`;
  return webhooks;
}

const crdBases = join('config', 'crd', 'bases');

/** The CRDs of config/crd/bases that convert through a webhook (`spec.conversion.strategy`). */
function conversionCrdNames(root: string): string[] {
  const dir = join(root, crdBases);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((file) => file.endsWith('.yaml') || file.endsWith('.yml'))
    .flatMap((file) => parseYamlStream(readFileSync(join(dir, file), 'utf8')))
    .filter(
      (object) =>
        object?.kind === 'CustomResourceDefinition' &&
        object.spec?.conversion?.strategy === 'Webhook' &&
        typeof object.metadata?.name === 'string',
    )
    .map((object) => object.metadata.name as string)
    .sort();
}

/**
 * For an operator with no admission webhooks whose CRDs convert through a webhook: the
 * Service of config/webhook/service.yaml and the manager's Secret; undefined otherwise.
 */
function conversionOnlyWebhooks(root: string, namePrefix: string): OperatorWebhooks | undefined {
  const conversionCrds = conversionCrdNames(root);
  if (!existsSync(join(root, webhookService)) || conversionCrds.length === 0) return undefined;
  const service = parseYamlStream(readFileSync(join(root, webhookService), 'utf8')).find(
    (object) => object.kind === 'Service',
  )?.metadata?.name;
  if (typeof service !== 'string') return undefined;
  return {
    service: `${namePrefix}${service}`,
    secret: servingCertificateSecret(root),
    conversionCrds,
  };
}

/**
 * The Secret the manager Deployment mounts its serving certificate from: its only Secret
 * volume, or the one mounted at a path ending in `serving-certs` (the webhook server's
 * default directory). kustomize does not prefix it: the Secret is not one of config's objects.
 */
function servingCertificateSecret(root: string): string {
  const path = join(root, managerManifest);
  const deployment = existsSync(path)
    ? parseYamlStream(readFileSync(path, 'utf8')).find((object) => object.kind === 'Deployment')
    : undefined;
  const spec = deployment?.spec?.template?.spec ?? {};
  const secrets = new Map<string, string>();
  for (const volume of Array.isArray(spec.volumes) ? spec.volumes : []) {
    if (typeof volume?.secret?.secretName === 'string') {
      secrets.set(volume.name, volume.secret.secretName);
    }
  }
  const mounted = (Array.isArray(spec.containers) ? spec.containers : [])
    .flatMap((container: K8sObject) =>
      Array.isArray(container.volumeMounts) ? container.volumeMounts : [],
    )
    .find(
      (mount: K8sObject) =>
        secrets.has(mount.name) && String(mount.mountPath).endsWith('serving-certs'),
    );
  const secret = mounted
    ? secrets.get(mounted.name)
    : secrets.size === 1
      ? [...secrets.values()][0]
      : undefined;
  if (secret === undefined) {
    throw new OperatorCliError(
      `${path}: the operator declares webhooks but its Deployment mounts no Secret at the webhook cert dir; add a volume \`secret: { secretName: webhook-server-cert }\` mounted at /tmp/k8s-webhook-server/serving-certs.`,
    );
  }
  return secret;
}

function readYaml(root: string, file: string): unknown {
  const path = join(root, file);
  try {
    return YAML.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new OperatorCliError(
      `cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** The first directory from `start` upwards (itself included) for which `test` holds. */
export function findUpwards(
  start: string,
  test: (directory: string) => boolean,
): string | undefined {
  let current = resolve(start);
  for (;;) {
    if (test(current)) return current;
    const parent = dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
}
