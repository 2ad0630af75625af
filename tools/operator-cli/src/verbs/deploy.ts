import { ensureClusterWebhookSecret } from '../cluster-webhook-secret.js';
import { OperatorCliError } from '../errors/operator-cli-error.js';
import { imageFromEnvironment } from '../image-reference.js';
import { kubectl, kustomize, toYamlStream } from '../kubectl.js';
import { setManagerImage } from '../manager-image.js';
import type { OperatorProject } from '../operator-project.js';
import { usesSelfManagedCertificates } from '../self-managed-certificates.js';
import { parseVerbOptions, type Verb } from '../verb.js';
import { withCaBundle } from '../webhook-ca-bundle.js';
import { noCertManagerOverlay } from './webhook-local.js';

/** Fails with what to do when cert-manager's CRDs are not in the cluster. */
async function requireCertManager(env: NodeJS.ProcessEnv): Promise<void> {
  const found = (
    await kubectl(
      [
        'get',
        'customresourcedefinition',
        'certificates.cert-manager.io',
        '--ignore-not-found',
        '-o',
        'name',
      ],
      { capture: true, env },
    )
  ).trim();
  if (found === '') {
    throw new OperatorCliError(
      'cert-manager is not installed in this cluster (no CRD certificates.cert-manager.io). Install it (https://cert-manager.io/docs/installation/, e.g. kubectl apply -f https://github.com/cert-manager/cert-manager/releases/latest/download/cert-manager.yaml), or deploy with --without-cert-manager.',
    );
  }
}

/** How {@link deploy} installs the operator. */
export interface DeployOptions {
  /** The manager's image. Default: IMG, else the operator's `<name>:latest`. */
  image?: string;
  /**
   * Apply config/default-no-certmanager: as it is when it runs the operator with self-managed
   * certificates, else with a generated webhook Secret and caBundle.
   */
  withoutCertManager?: boolean;
  env?: NodeJS.ProcessEnv;
  /** Receives progress lines. Default: none. */
  log?: (line: string) => void;
}

/**
 * Installs the operator in the current cluster, as kubebuilder's make deploy: sets the image
 * in config/manager, then applies config/default (requires cert-manager), or with
 * `withoutCertManager` config/default-no-certmanager. When that overlay runs the operator with
 * `--webhook-cert-mode=self-managed`, it is applied as it is (the operator makes its own
 * certificates); otherwise its Namespace first, then the webhook Secret (kept when valid, see
 * `ensureClusterWebhookSecret`), then every object with the Secret's CA as the webhook
 * configurations' caBundle.
 *
 * @throws {OperatorCliError} without cert-manager (saying how to install it or to use
 * `withoutCertManager`), or when kubectl fails.
 */
export async function deploy(project: OperatorProject, options: DeployOptions = {}): Promise<void> {
  const env = options.env ?? process.env;
  setManagerImage(options.image ?? imageFromEnvironment(project.defaultImage, env), project.root);
  if (!options.withoutCertManager) {
    await requireCertManager(env);
    await kubectl(['apply', '-k', 'config/default'], { cwd: project.root, env });
    return;
  }
  const objects = await kustomize(project.root, noCertManagerOverlay, env);
  const namespace = objects.find((object) => object.kind === 'Namespace');
  if (namespace === undefined) {
    throw new OperatorCliError(
      `${noCertManagerOverlay} renders no Namespace: keep config/manager's Namespace in it (kubebuilder layout).`,
    );
  }
  // The Namespace first: the Secret goes into it, before anything that mounts or trusts it.
  await kubectl(['apply', '-f', '-'], { input: JSON.stringify(namespace), cwd: project.root, env });
  let applied = objects;
  if (usesSelfManagedCertificates(objects)) {
    options.log?.('webhook certificate: made by the operator (--webhook-cert-mode=self-managed)');
  } else if (project.webhooks) {
    const { caCert, created } = await ensureClusterWebhookSecret(project, {
      namespace: namespace.metadata.name,
      env,
    });
    options.log?.(
      `webhook certificate: ${created ? 'generated a new CA and certificate' : 'kept the existing Secret'}`,
    );
    applied = withCaBundle(objects, caCert);
  }
  await kubectl(['apply', '-f', '-'], { input: toYamlStream(applied), cwd: project.root, env });
}

/**
 * Removes the operator from the current cluster, as kubebuilder's make undeploy: its CRDs
 * too, and with them every object of their kinds. Objects already gone are fine.
 */
export async function undeploy(
  project: OperatorProject,
  options: { withoutCertManager?: boolean; env?: NodeJS.ProcessEnv } = {},
): Promise<void> {
  const overlay = options.withoutCertManager ? noCertManagerOverlay : 'config/default';
  await kubectl(['delete', '--ignore-not-found=true', '-k', overlay], {
    cwd: project.root,
    env: options.env ?? process.env,
  });
}

const withoutCertManager = { 'without-cert-manager': { type: 'boolean' } } as const;

export const deployVerb: Verb = {
  name: 'deploy',
  summary: 'set the image from IMG and apply config/default (make deploy)',
  help: `Usage: [IMG=<image>] ops-operator deploy [--without-cert-manager]

Installs the operator in the cluster of the current kubeconfig, as kubebuilder's make deploy:
writes IMG (default <package name>:latest) into config/manager/kustomization.yaml, then
kubectl apply -k config/default. The operator's package.json runs \`ops-operator manifests\`
first.

With cert-manager (the default) cert-manager issues the webhook certificate; deploy stops
and says so when cert-manager is not installed.

Options:
  --without-cert-manager   apply config/default-no-certmanager. When it runs the operator with
                           --webhook-cert-mode=self-managed, the operator makes its own
                           certificates; otherwise deploy adds a Secret holding a generated CA
                           and certificate for the webhook Service (a valid existing Secret is
                           kept), with that CA as the webhooks' caBundle`,
  async run(argv, context) {
    const values = parseVerbOptions(this, argv, withoutCertManager);
    const project = context.project();
    if (!context.env.IMG) {
      context.stderr(
        `deploy: IMG is not set, so the manager runs ${project.defaultImage}: the cluster's nodes must have that image (kind: kind load docker-image ${project.defaultImage}); to use a registry, set IMG=<registry>/${project.name}:<tag>.\n`,
      );
    }
    await deploy(project, {
      withoutCertManager: values['without-cert-manager'] === true,
      env: context.env,
      log: (line) => context.stdout(`${line}\n`),
    });
    return 0;
  },
};

export const undeployVerb: Verb = {
  name: 'undeploy',
  summary: 'kubectl delete -k config/default (make undeploy)',
  help: `Usage: ops-operator undeploy [--without-cert-manager]

Removes the operator (config/default, or config/default-no-certmanager with
--without-cert-manager) from the cluster of the current kubeconfig, as kubebuilder's make
undeploy. This deletes its CRDs too, and so every object of their kinds. Objects already
gone are fine.`,
  async run(argv, context) {
    const values = parseVerbOptions(this, argv, withoutCertManager);
    await undeploy(context.project(), {
      withoutCertManager: values['without-cert-manager'] === true,
      env: context.env,
    });
    return 0;
  },
};
