// Serving certificates for the admission webhooks when cert-manager is not doing it: a CA and
// a certificate it signed, for the local machine (`pnpm run run`) or for the webhook Service in
// a cluster (config/default-no-certmanager). Generated with Node.js alone (the `selfsigned`
// package behind @ops/apiserver's createServingCertificates), no openssl needed.
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join } from 'node:path';
import {
  deployment,
  kubectl,
  operatorRoot,
  ScriptError,
  webhookServiceDnsNames,
} from './common.mjs';

/** Certificates expiring within this long are replaced (they are valid for a year). */
export const renewBeforeMs = 30 * 24 * 3600 * 1000;

/** Where `pnpm run run` keeps the local serving certificates (git-ignored, like all .cache). */
export const localCertDir = join(operatorRoot, '.cache', 'k8s-webhook-server', 'serving-certs');

/**
 * The names a local webhook certificate must cover: the loopback names, the webhook Service's
 * DNS names (for the Service + Endpoints route of scripts/webhook-local.mjs), and `extra`
 * (host IPs or names the API server will dial).
 *
 * @param {string[]} [extra]
 */
export function localWebhookHosts(extra = []) {
  return [...new Set(['localhost', '127.0.0.1', '::1', ...webhookServiceDnsNames(), ...extra])];
}

/**
 * @typedef {object} CertificateSet PEM texts
 * @property {string} caCert
 * @property {string} cert
 * @property {string} key
 */

/**
 * Whether `set` can be used as is: the certificate is signed by the CA, matches the key,
 * covers every one of `hosts` and stays valid for at least {@link renewBeforeMs}.
 *
 * @param {CertificateSet} set
 * @param {string[]} hosts
 * @param {number} [now]
 */
export function certificatesUsable(set, hosts, now = Date.now()) {
  try {
    const cert = new X509Certificate(set.cert);
    const ca = new X509Certificate(set.caCert);
    if (!cert.verify(ca.publicKey) || !cert.checkPrivateKey(createPrivateKey(set.key)))
      return false;
    if (Date.parse(cert.validTo) - now < renewBeforeMs || Date.parse(cert.validFrom) > now)
      return false;
    return hosts.every((host) =>
      isIP(host)
        ? cert.checkIP(host) !== undefined
        : cert.checkHost(host, { subject: 'never' }) !== undefined,
    );
  } catch {
    return false;
  }
}

/**
 * A new CA and a serving certificate for `hosts` (DNS names and IP addresses), valid a year.
 *
 * @param {string[]} hosts
 * @returns {Promise<CertificateSet>}
 * @throws {ScriptError} when @ops/apiserver has not been built (plain `node` loads its dist).
 */
export async function createCertificates(hosts) {
  /** @type {typeof import('@ops/apiserver')} */
  let apiserver;
  try {
    apiserver = await import('@ops/apiserver');
  } catch (error) {
    throw new ScriptError(
      `cannot load @ops/apiserver to generate certificates (${error instanceof Error ? error.message : String(error)}); build it first: pnpm turbo run build --filter=application-operator...`,
    );
  }
  const { caCert, cert, key } = await apiserver.createServingCertificates(hosts);
  return { caCert, cert, key };
}

/**
 * Makes sure `dir` holds tls.crt, tls.key and ca.crt usable for `hosts` (see
 * {@link certificatesUsable}), generating a new set when they are missing, expiring or do not
 * cover a host. The webhook server reloads them when they change.
 *
 * @param {{ dir?: string, hosts?: string[] }} [options]
 * @returns {Promise<CertificateSet & { dir: string, created: boolean }>}
 */
export async function ensureLocalCertificates(options = {}) {
  const dir = options.dir ?? localCertDir;
  const hosts = options.hosts ?? localWebhookHosts();
  /** @type {CertificateSet | undefined} */
  let existing;
  try {
    existing = {
      caCert: readFileSync(join(dir, 'ca.crt'), 'utf8'),
      cert: readFileSync(join(dir, 'tls.crt'), 'utf8'),
      key: readFileSync(join(dir, 'tls.key'), 'utf8'),
    };
  } catch {
    existing = undefined;
  }
  if (existing && certificatesUsable(existing, hosts)) return { ...existing, dir, created: false };
  const set = await createCertificates(hosts);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(join(dir, 'ca.crt'), set.caCert);
  writeFileSync(join(dir, 'tls.key'), set.key, { mode: 0o600 });
  writeFileSync(join(dir, 'tls.crt'), set.cert);
  return { ...set, dir, created: true };
}

/** @param {string} text */
const base64 = (text) => Buffer.from(text, 'utf8').toString('base64');
/** @param {unknown} text */
const unbase64 = (text) =>
  typeof text === 'string' ? Buffer.from(text, 'base64').toString('utf8') : '';

/**
 * Makes sure the cluster has the webhook Secret (type kubernetes.io/tls, with ca.crt) in
 * `namespace`, valid for the webhook Service's DNS names: an existing usable one is kept (no
 * write, so a running operator is not disturbed), otherwise a new CA and certificate replace
 * it. The namespace must exist. Returns the CA (PEM), for the webhook configurations'
 * caBundle.
 *
 * @param {{ namespace?: string, secretName?: string, service?: string }} [options]
 * @returns {Promise<{ caCert: string, created: boolean }>}
 */
export async function ensureClusterWebhookSecret(options = {}) {
  const namespace = options.namespace ?? deployment.namespace;
  const secretName = options.secretName ?? deployment.webhookSecret;
  const hosts = webhookServiceDnsNames(options.service ?? deployment.webhookService, namespace);
  const found = (
    await kubectl(
      ['get', 'secret', secretName, '--namespace', namespace, '--ignore-not-found', '-o', 'json'],
      { capture: true },
    )
  ).trim();
  const data = found ? (JSON.parse(found).data ?? {}) : undefined;
  if (data) {
    const existing = {
      caCert: unbase64(data['ca.crt']),
      cert: unbase64(data['tls.crt']),
      key: unbase64(data['tls.key']),
    };
    if (certificatesUsable(existing, hosts)) return { caCert: existing.caCert, created: false };
  }
  const set = await createCertificates(hosts);
  const secret = {
    apiVersion: 'v1',
    kind: 'Secret',
    type: 'kubernetes.io/tls',
    metadata: {
      name: secretName,
      namespace,
      labels: {
        'app.kubernetes.io/name': 'application-operator',
        'app.kubernetes.io/managed-by': 'webhook-certs',
      },
    },
    data: { 'ca.crt': base64(set.caCert), 'tls.crt': base64(set.cert), 'tls.key': base64(set.key) },
  };
  // create/replace rather than apply: apply would copy the private key into the
  // last-applied-configuration annotation.
  await kubectl([data ? 'replace' : 'create', '-f', '-'], {
    input: JSON.stringify(secret),
    capture: true,
  });
  return { caCert: set.caCert, created: true };
}

/**
 * Sets `caBundle` on every webhook of the given configurations, in the cluster.
 *
 * @param {string} caCert PEM
 * @param {{ mutating?: string, validating?: string }} [names]
 */
export async function patchCaBundle(caCert, names = {}) {
  const targets = [
    ['mutatingwebhookconfiguration', names.mutating ?? deployment.mutatingWebhookConfiguration],
    [
      'validatingwebhookconfiguration',
      names.validating ?? deployment.validatingWebhookConfiguration,
    ],
  ];
  for (const [kind, name] of targets) {
    const object = JSON.parse(
      await kubectl(['get', `${kind}/${name}`, '-o', 'json'], { capture: true }),
    );
    const webhooks = Array.isArray(object.webhooks) ? object.webhooks : [];
    const patch = webhooks.map((/** @type {unknown} */ _, /** @type {number} */ index) => ({
      op: 'add',
      path: `/webhooks/${index}/clientConfig/caBundle`,
      value: base64(caCert),
    }));
    if (patch.length === 0) continue;
    await kubectl(['patch', `${kind}/${name}`, '--type=json', '-p', JSON.stringify(patch)], {
      capture: true,
    });
  }
}

/**
 * Returns `objects` with `caBundle` set on every webhook of the webhook configurations.
 *
 * @param {Record<string, any>[]} objects
 * @param {string} caCert PEM
 */
export function withCaBundle(objects, caCert) {
  return objects.map((object) => {
    if (
      object.kind !== 'MutatingWebhookConfiguration' &&
      object.kind !== 'ValidatingWebhookConfiguration'
    ) {
      return object;
    }
    return {
      ...object,
      webhooks: (object.webhooks ?? []).map((/** @type {Record<string, any>} */ webhook) => ({
        ...webhook,
        clientConfig: { ...webhook.clientConfig, caBundle: base64(caCert) },
      })),
    };
  });
}
