import { X509Certificate } from 'node:crypto';
import { getEventListeners } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KubernetesObject } from '@ops/api';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { isForbidden } from '../client/api-error-helpers.js';
import { Client } from '../client/client.js';
import { type LocalApiServer, startLocalApiServer } from '../client/local-api-server.fixture.js';
import { clusterRoleFromRules } from '../crd/cluster-role.js';
import { createCertificateAuthority, splitPemCertificates } from '../tls/certificate-authority.js';
import { selfManagedCertificateRules } from './self-managed-certificate-rbac.js';
import {
  type SelfManagedCertificateNames,
  SelfManagedCertificates,
} from './self-managed-certificates.js';

const day = 24 * 3600 * 1000;
const logger = pino({ level: 'silent' });

let server: LocalApiServer;
let admin: Client;
const directories: string[] = [];

beforeAll(async () => {
  server = await startLocalApiServer({ https: true, rbac: true });
  admin = new Client({ kubeConfig: server.kubeConfig });
}, 30_000);

afterAll(async () => {
  admin?.close();
  await server?.stop();
  for (const directory of directories) await rm(directory, { recursive: true, force: true });
});

let counter = 0;

/** A namespace with a webhook Service's configurations and a service account allowed exactly the mode's rules. */
async function setup(options: { grant?: boolean; crd?: boolean } = {}) {
  counter++;
  const namespace = `certs-${counter}`;
  const names: SelfManagedCertificateNames = {
    secret: `op${counter}-webhook-server-cert`,
    service: `op${counter}-webhook-service`,
    mutatingConfiguration: `op${counter}-mutating-webhook-configuration`,
    validatingConfiguration: `op${counter}-validating-webhook-configuration`,
  };
  await admin.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
  for (const [kind, name] of [
    ['MutatingWebhookConfiguration', names.mutatingConfiguration],
    ['ValidatingWebhookConfiguration', names.validatingConfiguration],
  ] as const) {
    await admin.create({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind,
      metadata: { name },
      webhooks: ['a', 'b'].map((letter) => ({
        name: `${letter}.op${counter}.example.com`,
        admissionReviewVersions: ['v1'],
        sideEffects: 'None',
        // Ignore: these tests check the bundle, not calls; nothing serves the path.
        failurePolicy: 'Ignore',
        clientConfig: { service: { name: names.service, namespace, path: `/${letter}` } },
        rules: [
          {
            apiGroups: ['example.com'],
            apiVersions: ['v1'],
            operations: ['CREATE'],
            resources: [`nothing${counter}`],
          },
        ],
      })),
    } as KubernetesObject);
  }
  const account = `op${counter}`;
  if (options.grant !== false) {
    const rules = selfManagedCertificateRules(names);
    const role = `op${counter}-certs`;
    await admin.create(clusterRoleFromRules(role, rules.cluster) as unknown as KubernetesObject);
    await admin.create({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: role, namespace },
      rules: rules.namespaced,
    } as KubernetesObject);
    const subjects = [{ kind: 'ServiceAccount', name: account, namespace }];
    const roleRef = { apiGroup: 'rbac.authorization.k8s.io', name: role };
    await admin.create({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: role },
      roleRef: { ...roleRef, kind: 'ClusterRole' },
      subjects,
    } as KubernetesObject);
    await admin.create({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: role, namespace },
      roleRef: { ...roleRef, kind: 'Role' },
      subjects,
    } as KubernetesObject);
  }
  const token = await server.serviceAccountToken(namespace, account);
  return { namespace, names, token };
}

/** One replica of the operator's certificate manager, as its service account, with its own cert dir. */
async function replica(
  context: Awaited<ReturnType<typeof setup>>,
  clock: { now: number },
  overrides: Partial<ConstructorParameters<typeof SelfManagedCertificates>[0]> = {},
) {
  const certDir = join(await mkdtemp(join(tmpdir(), 'ops-self-managed-')), 'serving-certs');
  directories.push(certDir);
  let reloads = 0;
  const client = new Client({ kubeConfig: server.kubeConfigWithToken(context.token) });
  const certificates = new SelfManagedCertificates({
    client,
    names: context.names,
    namespace: context.namespace,
    certDir,
    logger,
    caLifetimeMs: 30 * day,
    certificateLifetimeMs: 9 * day,
    now: () => clock.now,
    onServingCertificate: async () => {
      reloads++;
    },
    ...overrides,
  });
  return {
    certificates,
    certDir,
    reloads: () => reloads,
    served: async () => ({
      cert: await readFile(join(certDir, 'tls.crt'), 'utf8'),
      key: await readFile(join(certDir, 'tls.key'), 'utf8'),
    }),
  };
}

/** The Secret's fields, decoded. */
async function secretOf(context: Awaited<ReturnType<typeof setup>>) {
  const secret = await admin.get<KubernetesObject & { data: Record<string, string> }>({
    apiVersion: 'v1',
    kind: 'Secret',
    namespace: context.namespace,
    name: context.names.secret,
  });
  const field = (key: string) => Buffer.from(secret.data[key] ?? '', 'base64').toString('utf8');
  return {
    bundle: splitPemCertificates(field('ca.crt')),
    caKey: field('ca.key'),
    cert: field('tls.crt'),
    key: field('tls.key'),
  };
}

/** The decoded caBundle of every webhook of both configurations. */
async function injectedBundles(context: Awaited<ReturnType<typeof setup>>): Promise<string[]> {
  const bundles: string[] = [];
  for (const [kind, name] of [
    ['MutatingWebhookConfiguration', context.names.mutatingConfiguration],
    ['ValidatingWebhookConfiguration', context.names.validatingConfiguration],
  ] as const) {
    const object = await admin.get<
      KubernetesObject & { webhooks: { clientConfig: { caBundle?: string } }[] }
    >({ apiVersion: 'admissionregistration.k8s.io/v1', kind, name: name ?? '' });
    for (const webhook of object.webhooks) {
      bundles.push(Buffer.from(webhook.clientConfig.caBundle ?? '', 'base64').toString('utf8'));
    }
  }
  return bundles;
}

/** Whether `cert` was signed by one of the CAs in `bundle`. */
function trustedBy(cert: string, bundle: string): boolean {
  const leaf = new X509Certificate(cert);
  return splitPemCertificates(bundle).some((ca) => leaf.verify(new X509Certificate(ca).publicKey));
}

describe('SelfManagedCertificates', () => {
  it('adds extra hosts (IP addresses as IP SANs) and replaces a stored certificate without them', async () => {
    const context = await setup();
    const clock = { now: Date.now() };
    const plain = await replica(context, clock);
    await plain.certificates.provision();
    const before = await secretOf(context);

    const byUrl = await replica(context, clock, { extraHosts: ['127.0.0.1', 'localhost'] });
    expect(byUrl.certificates.hosts.slice(2)).toEqual(['127.0.0.1', 'localhost']);
    expect(byUrl.certificates.dnsNames.slice(2)).toEqual(['localhost']);
    await byUrl.certificates.provision();
    const after = await secretOf(context);
    expect(after.cert).not.toBe(before.cert);
    expect(after.bundle).toEqual(before.bundle);
    const serving = new X509Certificate(after.cert);
    expect(serving.subjectAltName).toBe(
      `DNS:${context.names.service}.${context.namespace}.svc, DNS:${context.names.service}.${context.namespace}.svc.cluster.local, IP Address:127.0.0.1, DNS:localhost`,
    );
    expect(serving.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(await byUrl.served()).toEqual({ cert: after.cert, key: after.key });
  });

  it('makes a CA and a serving certificate, injects the CA into every webhook, and serves the pair', async () => {
    const context = await setup();
    const clock = { now: Date.now() };
    const first = await replica(context, clock);
    await first.certificates.provision();

    const stored = await secretOf(context);
    expect(stored.bundle).toHaveLength(1);
    const [ca] = stored.bundle;
    const caX509 = new X509Certificate(ca ?? '');
    expect(caX509.ca).toBe(true);
    const serving = new X509Certificate(stored.cert);
    expect(serving.verify(caX509.publicKey)).toBe(true);
    expect(serving.subjectAltName).toBe(
      `DNS:${context.names.service}.${context.namespace}.svc, DNS:${context.names.service}.${context.namespace}.svc.cluster.local`,
    );
    expect(await injectedBundles(context)).toEqual([ca, ca, ca, ca]);
    expect(await first.served()).toEqual({ cert: stored.cert, key: stored.key });
    expect(first.reloads()).toBe(1);

    // Nothing to do the second time: no write, no reload.
    await first.certificates.provision();
    expect(await secretOf(context)).toEqual(stored);
    expect(first.reloads()).toBe(1);

    // Another replica reads what the first wrote and serves the same pair.
    const second = await replica(context, clock);
    await second.certificates.provision();
    expect(await secretOf(context)).toEqual(stored);
    expect(await second.served()).toEqual({ cert: stored.cert, key: stored.key });
  });

  it('lets one of several racing replicas write; all serve the same trusted pair', async () => {
    const context = await setup();
    const clock = { now: Date.now() };
    const replicas = await Promise.all([1, 2, 3].map(() => replica(context, clock)));
    await Promise.all(replicas.map((one) => one.certificates.provision()));
    const stored = await secretOf(context);
    expect(stored.bundle).toHaveLength(1);
    for (const one of replicas)
      expect(await one.served()).toEqual({ cert: stored.cert, key: stored.key });
    for (const bundle of await injectedBundles(context)) {
      expect(trustedBy(stored.cert, bundle)).toBe(true);
    }
  });

  it('renews the serving certificate after two thirds of its lifetime', async () => {
    const context = await setup();
    const clock = { now: Date.now() };
    const one = await replica(context, clock);
    await one.certificates.provision();
    const before = await secretOf(context);
    clock.now += 5 * day; // 5 of 9 days: not yet
    await one.certificates.provision();
    expect((await secretOf(context)).cert).toBe(before.cert);
    clock.now += 1.5 * day; // 6.5 of 9 days: past two thirds
    await one.certificates.provision();
    const after = await secretOf(context);
    expect(after.cert).not.toBe(before.cert);
    expect(after.bundle).toEqual(before.bundle);
    expect(await one.served()).toEqual({ cert: after.cert, key: after.key });
    expect(one.reloads()).toBe(2);
  });

  it('rotates the CA with overlap: both CAs are trusted before the new one signs, the old one leaves when it expires', async () => {
    const context = await setup();
    const clock = { now: Date.now() };
    const one = await replica(context, clock, { certificateLifetimeMs: 40 * day });
    const other = await replica(context, clock, { certificateLifetimeMs: 40 * day });
    await one.certificates.provision();
    await other.certificates.provision();
    const original = await secretOf(context);
    const [oldCa] = original.bundle;
    // Past two thirds of the CA's 30 days.
    clock.now += 21 * day;
    await one.certificates.provision();
    const rotated = await secretOf(context);
    expect(rotated.bundle).toHaveLength(2);
    expect(rotated.bundle[1]).toBe(oldCa);
    const newCa = rotated.bundle[0] ?? '';
    expect(new X509Certificate(rotated.cert).verify(new X509Certificate(newCa).publicKey)).toBe(
      true,
    );
    // The serving certificate is no longer than its CA.
    expect(Date.parse(new X509Certificate(rotated.cert).validTo)).toBeLessThanOrEqual(
      Date.parse(new X509Certificate(newCa).validTo),
    );
    for (const bundle of await injectedBundles(context)) {
      expect(splitPemCertificates(bundle)).toEqual([newCa, oldCa]);
      // The replica that has not re-read yet still serves the old pair, which stays trusted.
      expect(trustedBy((await other.served()).cert, bundle)).toBe(true);
      expect(trustedBy(rotated.cert, bundle)).toBe(true);
    }
    await other.certificates.provision();
    expect(await other.served()).toEqual({ cert: rotated.cert, key: rotated.key });
    // The old CA expires (30 days after it was made): it leaves the bundle.
    clock.now += 10 * day;
    await one.certificates.provision();
    const pruned = await secretOf(context);
    expect(pruned.bundle).toEqual([newCa]);
    for (const bundle of await injectedBundles(context)) expect(bundle).toBe(newCa);
  });

  it('rotates the CA when ca.key is removed from the Secret (a forced rotation)', async () => {
    const context = await setup();
    const clock = { now: Date.now() };
    const one = await replica(context, clock);
    await one.certificates.provision();
    const original = await secretOf(context);
    const secret = await admin.get<KubernetesObject & { data: Record<string, string> }>({
      apiVersion: 'v1',
      kind: 'Secret',
      namespace: context.namespace,
      name: context.names.secret,
    });
    delete secret.data['ca.key'];
    await admin.update(secret);
    await one.certificates.provision();
    const rotated = await secretOf(context);
    expect(rotated.bundle).toHaveLength(2);
    expect(rotated.bundle[1]).toBe(original.bundle[0]);
    expect(rotated.cert).not.toBe(original.cert);
    expect(await one.served()).toEqual({ cert: rotated.cert, key: rotated.key });
  });

  it('re-reads once when a configuration holds a newer CA than its Secret, then replaces a CA that is not in the Secret', async () => {
    const context = await setup();
    const clock = { now: Date.now() };
    const warnings: string[] = [];
    const one = await replica(context, clock, {
      logger: pino(
        { level: 'warn' },
        { write: (line: string) => warnings.push(JSON.parse(line).msg) },
      ),
    });
    await one.certificates.provision();
    const stored = await secretOf(context);
    // A CA made later than the Secret's, put into one configuration by someone else.
    const foreign = await createCertificateAuthority('foreign', clock.now + 5_000, 60_000);
    const configuration = await admin.get<
      KubernetesObject & { webhooks: { clientConfig: { caBundle?: string } }[] }
    >({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      name: context.names.validatingConfiguration ?? '',
    });
    for (const webhook of configuration.webhooks) {
      webhook.clientConfig.caBundle = Buffer.from(foreign.cert).toString('base64');
    }
    await admin.update(configuration);
    await one.certificates.provision();
    const bundle = stored.bundle.join('');
    expect(await injectedBundles(context)).toEqual([bundle, bundle, bundle, bundle]);
    expect(await secretOf(context)).toEqual(stored);
    expect(warnings).toEqual(['replacing a CA bundle that holds a CA the Secret does not know']);
  });

  it('injects into a conversion webhook of a CRD it is told about', async () => {
    const context = await setup();
    const crdName = `widgets${counter}.example.com`;
    await admin.create({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: crdName },
      spec: {
        group: 'example.com',
        names: {
          kind: `Widget${counter}`,
          plural: `widgets${counter}`,
          singular: `widget${counter}`,
          listKind: `Widget${counter}List`,
        },
        scope: 'Namespaced',
        versions: ['v1', 'v2'].map((name) => ({
          name,
          served: true,
          storage: name === 'v1',
          schema: {
            openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
          },
        })),
        conversion: {
          strategy: 'Webhook',
          webhook: {
            conversionReviewVersions: ['v1'],
            clientConfig: {
              service: {
                name: context.names.service,
                namespace: context.namespace,
                path: '/convert',
              },
            },
          },
        },
      },
    } as KubernetesObject);
    const names = { ...context.names, customResourceDefinitions: [crdName] };
    await admin.update({
      ...(await admin.get({
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        name: `op${counter}-certs`,
      })),
      rules: clusterRoleFromRules('x', selfManagedCertificateRules(names).cluster).rules,
    } as KubernetesObject);
    const one = await replica({ ...context, names }, { now: Date.now() });
    await one.certificates.provision();
    const crd = await admin.get<
      KubernetesObject & {
        spec: { conversion: { webhook: { clientConfig: { caBundle: string } } } };
      }
    >({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      name: crdName,
    });
    const bundle = Buffer.from(
      crd.spec.conversion.webhook.clientConfig.caBundle,
      'base64',
    ).toString('utf8');
    expect(splitPemCertificates(bundle)).toEqual((await secretOf(context)).bundle);
  });

  it('fails with Forbidden, and writes nothing, without its RBAC rules', async () => {
    const context = await setup({ grant: false });
    const one = await replica(context, { now: Date.now() });
    const failure = await one.certificates.provision().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(isForbidden(failure)).toBe(true);
  });
});

describe('SelfManagedCertificates.run', () => {
  it('checks every interval, logs and retries a failed check, leaks no listeners, and stops on abort', async () => {
    const errors: string[] = [];
    const certificates = new SelfManagedCertificates({
      client: admin,
      names: { secret: 's', service: 'svc' },
      namespace: 'ns',
      certDir: join(tmpdir(), 'unused'),
      logger: pino(
        { level: 'error' },
        { write: (line: string) => errors.push(JSON.parse(line).msg) },
      ),
      checkIntervalMs: 5,
    });
    let calls = 0;
    vi.spyOn(certificates, 'provision').mockImplementation(async () => {
      calls++;
      if (calls === 2) throw new Error('API server unreachable');
    });
    const stop = new AbortController();
    const running = certificates.run(stop.signal);
    while (calls < 12) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(getEventListeners(stop.signal, 'abort').length).toBeLessThanOrEqual(1);
    stop.abort();
    await running;
    const after = calls;
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(calls).toBe(after);
    expect(errors).toEqual(['checking the webhook certificates failed; retrying later']);
  });
});
