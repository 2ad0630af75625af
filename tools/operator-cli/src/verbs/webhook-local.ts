import { isIP } from 'node:net';
import { OperatorCliError } from '../errors/operator-cli-error.js';
import { type K8sObject, kubectl, kustomize, toYamlStream } from '../kubectl.js';
import { ensureLocalCertificates, localWebhookHosts } from '../local-certificates.js';
import type { OperatorProject } from '../operator-project.js';
import { parseVerbOptions, type Verb } from '../verb.js';
import { isConversionCrd, withCaBundle } from '../webhook-ca-bundle.js';

/** The overlay without cert-manager: its webhook configurations carry no CA injection. */
export const noCertManagerOverlay = 'config/default-no-certmanager';

/**
 * The objects that route the cluster's webhook calls to `hostIp`:`port`: the operator's
 * Namespace, its webhook Service without a selector (Service port -> `port`), Endpoints to
 * `hostIp`:`port`, and the webhook configurations and the CRDs with a conversion webhook of
 * config/default-no-certmanager trusting `caCert` (the conversion webhooks call the same
 * Service, so they reach `run` too).
 *
 * The Service is the one the webhook configurations name, or for an operator with only a
 * conversion webhook, the one its CRD names.
 *
 * @throws {OperatorCliError} when the overlay renders no Namespace, or neither a webhook
 * configuration nor a conversion CRD with a service, or kubectl fails.
 */
export async function localWebhookObjects(
  project: OperatorProject,
  options: { hostIp: string; port: number; caCert: string; env?: NodeJS.ProcessEnv },
): Promise<K8sObject[]> {
  const rendered = await kustomize(project.root, noCertManagerOverlay, options.env);
  const namespace = rendered.find((object) => object.kind === 'Namespace');
  const configurations = rendered.filter(
    (object) =>
      object.kind === 'MutatingWebhookConfiguration' ||
      object.kind === 'ValidatingWebhookConfiguration',
  );
  const conversionCrds = rendered.filter(isConversionCrd);
  // An operator with only a conversion webhook (no admission webhooks) routes the Service its
  // CRD names; with both, they name the same Service.
  const serviceRef =
    configurations[0]?.webhooks?.[0]?.clientConfig?.service ??
    conversionCrds[0]?.spec?.conversion?.webhook?.clientConfig?.service;
  if (namespace === undefined || serviceRef === undefined) {
    throw new OperatorCliError(
      `${noCertManagerOverlay} renders no Namespace, or neither a webhook configuration nor a CRD conversion webhook with a service: webhook-local needs both (see the kubebuilder layout: config/manager, config/webhook).`,
    );
  }
  const metadata = {
    name: serviceRef.name,
    namespace: serviceRef.namespace,
    labels: {
      'app.kubernetes.io/name': project.name,
      'app.kubernetes.io/managed-by': 'webhook-local',
    },
  };
  const service = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata,
    spec: {
      ports: [
        {
          name: 'webhook',
          port: serviceRef.port ?? 443,
          protocol: 'TCP',
          targetPort: options.port,
        },
      ],
    },
  };
  const endpoints = {
    apiVersion: 'v1',
    kind: 'Endpoints',
    metadata,
    subsets: [
      {
        addresses: [{ ip: options.hostIp }],
        ports: [{ name: 'webhook', port: options.port, protocol: 'TCP' }],
      },
    ],
  };
  return [
    namespace,
    service,
    endpoints,
    ...withCaBundle([...configurations, ...conversionCrds], options.caCert),
  ];
}

/**
 * Applies {@link localWebhookObjects} to the current cluster, after making sure the local
 * certificates in `certDir` (default: the project's) cover the Service's names and `hostIp`.
 *
 * @throws {OperatorCliError} when `hostIp` is not an IP address, or kubectl fails.
 */
export async function routeWebhooksHere(
  project: OperatorProject,
  options: { hostIp: string; port?: number; certDir?: string; env?: NodeJS.ProcessEnv },
): Promise<{ objects: K8sObject[]; certDir: string; port: number }> {
  const env = options.env ?? process.env;
  if (isIP(options.hostIp) === 0) {
    throw new OperatorCliError(
      `--host-ip must be an IP address the API server can reach, got "${options.hostIp}"`,
    );
  }
  const port = options.port ?? 9443;
  const certs = await ensureLocalCertificates(project, {
    ...(options.certDir === undefined ? {} : { dir: options.certDir }),
    hosts: localWebhookHosts(project, [options.hostIp]),
  });
  const objects = await localWebhookObjects(project, {
    hostIp: options.hostIp,
    port,
    caCert: certs.caCert,
    env,
  });
  // A stream of documents, not a List: kubectl validates a List against OpenAPI v2 only.
  await kubectl(['apply', '-f', '-'], { input: toYamlStream(objects), capture: true, env });
  return { objects, certDir: certs.dir, port };
}

/**
 * Deletes the Service, Endpoints and webhook configurations {@link routeWebhooksHere} made;
 * never the Namespace or a CRD (which would delete its objects): the CRDs keep their
 * conversion webhook, which `install-crds` or `deploy` set back.
 */
export async function removeLocalRoute(
  project: OperatorProject,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  const objects = (
    await localWebhookObjects(project, { hostIp: '127.0.0.1', port: 9443, caCert: '', env })
  ).filter((object) => object.kind !== 'Namespace' && !isConversionCrd(object));
  for (const object of objects) {
    const namespace = object.metadata.namespace ? ['--namespace', object.metadata.namespace] : [];
    await kubectl(
      [
        'delete',
        '--ignore-not-found=true',
        object.kind.toLowerCase(),
        object.metadata.name,
        ...namespace,
      ],
      { capture: true, env },
    );
  }
}

const usage =
  'Usage: ops-operator webhook-local --host-ip <ip of this machine reachable from the API server> [--port 9443] [--cert-dir <dir>] | --delete';

export const webhookLocalVerb: Verb = {
  name: 'webhook-local',
  summary: "route the cluster's webhook calls to `ops-operator run` on this machine",
  help: `${usage}

Debug the admission webhooks on your machine, as kubebuilder's local webhook workflow: the
cluster keeps calling the webhook Service, but that Service gets no selector and Endpoints
pointing at <ip>:<port>, where \`ops-operator run\` serves the webhooks.

Makes sure the local serving certificate (the one run uses) covers the Service's DNS names
and <ip>, then applies the operator's Namespace, the selector-less Service, its Endpoints and
the webhook configurations of config/default-no-certmanager with the local CA as caBundle.
<ip> must be an address of this machine the API server can reach (kind: the gateway of the
kind docker network). Do not use it where the operator is deployed: it takes over that
deployment's webhook Service and configurations.

Options:
  --host-ip <ip>     this machine's address, as the API server reaches it
  --port <port>      where run serves the webhooks (default 9443)
  --cert-dir <dir>   the local certificates (default .cache/k8s-webhook-server/serving-certs)
  --delete           remove the Service, Endpoints and webhook configurations again`,
  async run(argv, context) {
    const values = parseVerbOptions(this, argv, {
      'host-ip': { type: 'string' },
      port: { type: 'string' },
      'cert-dir': { type: 'string' },
      delete: { type: 'boolean' },
    });
    const project = context.project();
    if (values.delete) {
      await removeLocalRoute(project, context.env);
      context.stdout('removed the local webhook Service, Endpoints and webhook configurations\n');
      return 0;
    }
    const hostIp = values['host-ip'];
    if (hostIp === undefined)
      throw new OperatorCliError(`webhook-local: --host-ip is missing\n${usage}`);
    const port = values.port === undefined ? undefined : Number(values.port);
    if (port !== undefined && !(Number.isInteger(port) && port > 0 && port < 65536)) {
      throw new OperatorCliError(`--port must be a TCP port (1-65535), got "${values.port}"`);
    }
    if (hostIp.startsWith('127.') || hostIp === '::1') {
      context.stderr(
        'webhook-local: a real kube-apiserver rejects loopback addresses in Endpoints; use one of this machine the cluster can reach (fine for the local API server of `pnpm local-cluster`).\n',
      );
    }
    const certDir = values['cert-dir'];
    const result = await routeWebhooksHere(project, {
      hostIp,
      env: context.env,
      ...(port === undefined ? {} : { port }),
      ...(certDir === undefined ? {} : { certDir }),
    });
    context.stdout(
      `The cluster now sends the webhooks to https://${hostIp}:${result.port}. Serve them with:\n  ops-operator run -- --webhook-port ${result.port}${certDir ? ` --webhook-cert-dir ${result.certDir}` : ''}\nUndo with: ops-operator webhook-local --delete\n`,
    );
    return 0;
  },
};
