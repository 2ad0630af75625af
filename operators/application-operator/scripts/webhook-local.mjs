// Debug the admission webhooks on your machine, as kubebuilder's local webhook workflow
// does: the cluster keeps calling the webhook Service, but that Service has no selector and
// its Endpoints point at this machine, where `pnpm run run` serves the webhooks.
//
//   node scripts/webhook-local.mjs --host-ip <ip> [--port 9443] [--cert-dir <dir>]
//   node scripts/webhook-local.mjs --delete
//
// It makes sure the local serving certificate (the one `pnpm run run` uses) covers the
// Service's DNS names and <ip>, then applies to the current cluster: the operator's
// Namespace, the selector-less webhook Service (443 -> --port), its Endpoints (<ip>:--port)
// and both webhook configurations with the local CA as caBundle. <ip> must be an address of
// this machine that the API server can reach (for kind: the gateway of the `kind` docker
// network). Do not use it in a cluster where the operator is deployed: it replaces that
// deployment's webhook Service and configurations.
import { isIP } from 'node:net';
import {
  ensureLocalCertificates,
  localCertDir,
  localWebhookHosts,
  withCaBundle,
} from './certificates.mjs';
import {
  kubectl,
  kustomize,
  operatorRoot,
  runIfMain,
  ScriptError,
  scriptArgs,
  takeFlag,
  takeOption,
  toYamlStream,
} from './common.mjs';

/**
 * The objects that route the cluster's webhook calls to `hostIp`:`port`.
 *
 * @param {{ hostIp: string, port: number, caCert: string, root?: string }} options
 * @returns {Promise<Record<string, any>[]>}
 */
export async function localWebhookObjects(options) {
  const rendered = await kustomize('config/default-no-certmanager', options.root ?? operatorRoot);
  const namespace = rendered.find((object) => object.kind === 'Namespace');
  const configurations = rendered.filter(
    (object) =>
      object.kind === 'MutatingWebhookConfiguration' ||
      object.kind === 'ValidatingWebhookConfiguration',
  );
  const serviceRef = configurations[0]?.webhooks?.[0]?.clientConfig?.service;
  if (namespace === undefined || serviceRef === undefined) {
    throw new ScriptError(
      'config/default-no-certmanager renders no Namespace or no webhook configuration with a service',
    );
  }
  const metadata = {
    name: serviceRef.name,
    namespace: serviceRef.namespace,
    labels: {
      'app.kubernetes.io/name': 'application-operator',
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
  return [namespace, service, endpoints, ...withCaBundle(configurations, options.caCert)];
}

/**
 * Applies {@link localWebhookObjects} to the current cluster, after making sure the local
 * certificates in `certDir` cover the Service's names and `hostIp`.
 *
 * @param {{ hostIp: string, port?: number, certDir?: string, root?: string }} options
 */
export async function routeWebhooksHere(options) {
  if (isIP(options.hostIp) === 0) {
    throw new ScriptError(
      `--host-ip must be an IP address the API server can reach, got "${options.hostIp}"`,
    );
  }
  const port = options.port ?? 9443;
  const certs = await ensureLocalCertificates({
    dir: options.certDir ?? localCertDir,
    hosts: localWebhookHosts([options.hostIp]),
  });
  const objects = await localWebhookObjects({
    hostIp: options.hostIp,
    port,
    caCert: certs.caCert,
    ...(options.root ? { root: options.root } : {}),
  });
  // A stream of documents, not a List: kubectl validates a List against OpenAPI v2 only.
  await kubectl(['apply', '-f', '-'], { input: toYamlStream(objects), capture: true });
  return { objects, certDir: certs.dir, port };
}

/**
 * Deletes the Service, Endpoints and webhook configurations {@link routeWebhooksHere} made.
 * @param {{ root?: string }} [options]
 */
export async function removeLocalRoute(options = {}) {
  const objects = (
    await localWebhookObjects({ hostIp: '127.0.0.1', port: 9443, caCert: '', ...options })
  ).filter((object) => object.kind !== 'Namespace');
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
      {
        capture: true,
      },
    );
  }
}

runIfMain(import.meta.url, async () => {
  const { set: remove, rest: afterDelete } = takeFlag(scriptArgs(), 'delete');
  const { value: hostIp, rest: afterHost } = takeOption(afterDelete, 'host-ip');
  const { value: port, rest: afterPort } = takeOption(afterHost, 'port');
  const { value: certDir, rest } = takeOption(afterPort, 'cert-dir');
  if (rest.length > 0) throw new ScriptError(`unknown argument(s): ${rest.join(' ')}`);
  if (remove) {
    await removeLocalRoute();
    console.log('removed the local webhook Service, Endpoints and webhook configurations');
    return 0;
  }
  if (hostIp === undefined) {
    throw new ScriptError(
      'usage: node scripts/webhook-local.mjs --host-ip <ip of this machine reachable from the API server> [--port 9443] [--cert-dir <dir>] | --delete',
    );
  }
  if (hostIp.startsWith('127.') || hostIp === '::1') {
    console.warn(
      'webhook-local: a real kube-apiserver rejects loopback addresses in Endpoints; use one of this machine the cluster can reach (fine for the local API server of `pnpm local-cluster`).',
    );
  }
  const result = await routeWebhooksHere({
    hostIp,
    ...(port ? { port: Number(port) } : {}),
    ...(certDir ? { certDir } : {}),
  });
  console.log(
    `The cluster now sends the webhooks to https://${hostIp}:${result.port}. Serve them with:\n  pnpm run run -- --webhook-port ${result.port}${certDir ? ` --webhook-cert-dir ${result.certDir}` : ''}\nUndo with: node scripts/webhook-local.mjs --delete`,
  );
  return 0;
});
