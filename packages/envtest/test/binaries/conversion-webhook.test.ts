// A custom resource with two versions and a conversion webhook, on real etcd + kube-apiserver
// (pnpm test:binaries): kube-apiserver itself calls @ops/core's WebhookServer at /convert, by
// URL (envtest's webhooksByUrl), for every read and write in the version it does not store.
// The webhook's certificate is the self-managed mode's, which injects its CA into the CRD and
// rotates the serving certificate while conversions go on.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, type KubernetesObject, secrets } from '@ops/core';
import {
  type Conversion,
  type CustomResource,
  conversionData,
  defineConversion,
  defineCustomResource,
} from '@ops/core/crd';
import { SelfManagedCertificates } from '@ops/core/operator';
import { WebhookServer } from '@ops/core/webhook';
import { Type } from '@sinclair/typebox';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Environment, eventually, freePort, kubeRequest, webhooksByUrl } from '../../src/index.js';

// v1beta1 had a free-text `spec.size` ("3" or "3-9"); v1, the storage version and hub, made it
// `spec.scale: { min, max }` and added `status.message`, which v1beta1 keeps in its annotation.
const gauge = defineCustomResource({
  group: 'conversion.example.com',
  kind: 'Gauge',
  plural: 'gauges',
  scope: 'Namespaced',
  conversion: 'Webhook',
  versions: [
    {
      name: 'v1beta1',
      spec: Type.Object({ size: Type.String() }),
      status: Type.Object({ ok: Type.Optional(Type.Boolean()) }),
      printerColumns: [{ name: 'Size', type: 'string', jsonPath: '.spec.size' }],
    },
    {
      name: 'v1',
      storage: true,
      spec: Type.Object({
        scale: Type.Object({ min: Type.Integer(), max: Type.Integer() }),
        unit: Type.Optional(Type.String()),
      }),
      status: Type.Object({
        ok: Type.Optional(Type.Boolean()),
        message: Type.Optional(Type.String()),
      }),
      printerColumns: [{ name: 'Max', type: 'integer', jsonPath: '.spec.scale.max' }],
    },
  ],
});
type Gauge = CustomResource<typeof gauge>;

const kept = conversionData(gauge);
const v1beta1: Conversion<typeof gauge, 'v1beta1'> = {
  toHub(spoke) {
    const match = /^(\d+)(?:-(\d+))?$/.exec(spoke.spec.size);
    if (match === null)
      throw new Error(`spec.size ${JSON.stringify(spoke.spec.size)} is not N or N-M`);
    const min = Number(match[1]);
    const { metadata, kept: saved } = kept.restore(spoke);
    const unit = saved?.spec?.unit;
    const hub: Gauge = {
      apiVersion: 'conversion.example.com/v1',
      kind: 'Gauge',
      metadata,
      spec: {
        scale: { min, max: Number(match[2] ?? min) },
        ...(unit === undefined ? {} : { unit }),
      },
    };
    if (spoke.status !== undefined) {
      const message = saved?.status?.message;
      hub.status = { ...spoke.status, ...(message === undefined ? {} : { message }) };
    }
    return hub;
  },
  fromHub(hub) {
    const { min, max } = hub.spec.scale;
    if (max < min) throw new Error(`spec.scale.max ${max} is below spec.scale.min ${min}`);
    const { message, ...status } = hub.status ?? {};
    return kept.save(
      {
        apiVersion: 'conversion.example.com/v1beta1',
        kind: 'Gauge',
        metadata: hub.metadata,
        spec: { size: min === max ? `${min}` : `${min}-${max}` },
        ...(hub.status === undefined ? {} : { status }),
      },
      { spec: { unit: hub.spec.unit }, status: { message } },
    );
  },
};

let env: Environment;
let server: WebhookServer | undefined;
let certDir: string;
let client: Client;
let certificates: SelfManagedCertificates;
const secret = 'gauge-webhook-server-cert';

const path = (version: string, name = '') =>
  `/apis/conversion.example.com/${version}/namespaces/default/gauges${name === '' ? '' : `/${name}`}`;
const request = (method: string, url: string, body?: unknown) =>
  kubeRequest(env.kubeConfig, method, url, body);
const specOf = (response: { body: unknown }) => (response.body as { spec: unknown }).spec;

beforeAll(async () => {
  env = await Environment.start();
  client = new Client({ kubeConfig: env.kubeConfig });
  certDir = await mkdtemp(join(tmpdir(), 'conversion-webhook-'));
  // The generated CRD, its conversion webhook's Service replaced by this process's URL (the
  // port reserved first), without a CA bundle: the self-managed mode injects it.
  const port = await freePort();
  await env.installCrds(webhooksByUrl([gauge.crd()], { port }));
  certificates = new SelfManagedCertificates({
    client,
    names: { secret, service: 'gauge-webhook-service', customResourceDefinitions: [gauge.name] },
    namespace: 'default',
    certDir,
    extraHosts: ['127.0.0.1'],
    logger: pino({ level: 'silent' }),
    onServingCertificate: async () => {
      if (server?.started) await server.certWatcher.reload();
    },
  });
  await certificates.provision();
  const started = new WebhookServer({ port, host: '127.0.0.1', certDir, watchCertDir: false });
  started.register(defineConversion(gauge, { v1beta1 }));
  await started.start();
  server = started;
}, 240_000);

afterAll(async () => {
  client?.close();
  await server?.stop();
  await env?.stop();
  if (certDir !== undefined) await rm(certDir, { recursive: true, force: true });
});

describe('a conversion webhook called by kube-apiserver', () => {
  it('creates in v1beta1, reads in v1 and back in v1beta1 unchanged', async () => {
    const written = {
      apiVersion: 'conversion.example.com/v1beta1',
      kind: 'Gauge',
      metadata: { name: 'from-beta', namespace: 'default' },
      spec: { size: '3-9' },
    };
    // kube-apiserver starts calling a new CRD's webhook a moment after it is served.
    const created = await eventually(
      async () => {
        const response = await request('POST', path('v1beta1'), written);
        if (response.status !== 201) throw new Error(JSON.stringify(response.body));
        return response;
      },
      { timeoutMs: 60_000, description: 'the first write through the conversion webhook' },
    );
    expect(specOf(created)).toEqual({ size: '3-9' });
    const hub = await request('GET', path('v1', 'from-beta'));
    expect(hub.status).toBe(200);
    expect(hub.body).toMatchObject({
      apiVersion: 'conversion.example.com/v1',
      spec: { scale: { min: 3, max: 9 } },
    });
    const back = await request('GET', path('v1beta1', 'from-beta'));
    expect(back.body).toMatchObject({
      apiVersion: 'conversion.example.com/v1beta1',
      spec: { size: '3-9' },
    });
    expect((back.body as KubernetesObject).metadata?.annotations).toBeUndefined();
  });

  it('keeps what v1beta1 cannot hold through a read, edit and write in v1beta1', async () => {
    const created = await request('POST', path('v1'), {
      apiVersion: 'conversion.example.com/v1',
      kind: 'Gauge',
      metadata: { name: 'from-v1', namespace: 'default' },
      spec: { scale: { min: 2, max: 2 }, unit: 'rpm' },
    });
    expect(created.status).toBe(201);
    const spoke = (await request('GET', path('v1beta1', 'from-v1'))).body as KubernetesObject & {
      spec: { size: string };
    };
    expect(spoke.spec).toEqual({ size: '2' });
    expect(spoke.metadata?.annotations).toEqual({
      'conversion.example.com/conversion-data': '{"spec":{"unit":"rpm"}}',
    });
    const updated = await request('PUT', path('v1beta1', 'from-v1'), {
      ...spoke,
      spec: { size: '2-5' },
    });
    expect(updated.status).toBe(200);
    const hub = await request('GET', path('v1', 'from-v1'));
    expect(specOf(hub)).toEqual({ scale: { min: 2, max: 5 }, unit: 'rpm' });
    // Stored in v1 without the annotation: it only travels with v1beta1.
    expect((hub.body as KubernetesObject).metadata?.annotations).toBeUndefined();
  });

  it('lists in both versions', async () => {
    const names = (response: { body: unknown }) =>
      ((response.body as { items: KubernetesObject[] }).items ?? []).map((item) => [
        item.apiVersion,
        item.metadata?.name,
      ]);
    expect(names(await request('GET', path('v1')))).toEqual([
      ['conversion.example.com/v1', 'from-beta'],
      ['conversion.example.com/v1', 'from-v1'],
    ]);
    expect(names(await request('GET', path('v1beta1')))).toEqual([
      ['conversion.example.com/v1beta1', 'from-beta'],
      ['conversion.example.com/v1beta1', 'from-v1'],
    ]);
  });

  it('fails a read the conversion refuses, with the object and the reason in the error', async () => {
    await request('POST', path('v1'), {
      apiVersion: 'conversion.example.com/v1',
      kind: 'Gauge',
      metadata: { name: 'inverted', namespace: 'default' },
      spec: { scale: { min: 9, max: 1 } },
    });
    const refused = await request('GET', path('v1beta1', 'inverted'));
    expect(refused.status).toBe(500);
    expect((refused.body as { message: string }).message).toContain(
      'Gauge default/inverted: converting conversion.example.com/v1 to conversion.example.com/v1beta1 failed: spec.scale.max 1 is below spec.scale.min 9',
    );
    expect((await request('GET', path('v1', 'inverted'))).status).toBe(200);
    expect((await request('DELETE', path('v1', 'inverted'))).status).toBe(200);
  });

  it('trusts the CA the self-managed mode injected into the CRD, and a rotated serving certificate', async () => {
    const crd = (await request(
      'GET',
      `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${gauge.name}`,
    )) as { body: { spec: { conversion: { webhook: { clientConfig: { caBundle?: string } } } } } };
    const stored = await client.get(secrets, secret, 'default');
    expect(crd.body.spec.conversion.webhook.clientConfig.caBundle).toBe(stored.data?.['ca.crt']);
    const before = server?.certificate?.cert;
    // Force a new serving certificate (remove tls.crt from the Secret), as the README says.
    const { 'tls.crt': _old, ...data } = stored.data ?? {};
    await client.update({ ...stored, data });
    await certificates.provision();
    expect(server?.certificate?.cert).toBeDefined();
    expect(server?.certificate?.cert).not.toBe(before);
    const read = await request('GET', path('v1beta1', 'from-v1'));
    expect(read.status).toBe(200);
    expect(specOf(read)).toEqual({ size: '2-5' });
  });

  it('fails writes that need the webhook while it is down, and loses nothing', async () => {
    await server?.stop();
    const refused = await request('POST', path('v1beta1'), {
      apiVersion: 'conversion.example.com/v1beta1',
      kind: 'Gauge',
      metadata: { name: 'while-down', namespace: 'default' },
      spec: { size: '1' },
    });
    expect(refused.status).toBe(500);
    expect((refused.body as { message: string }).message).toContain('conversion webhook');
    const stored = await request('GET', path('v1', 'from-v1'));
    expect(specOf(stored)).toEqual({ scale: { min: 2, max: 5 }, unit: 'rpm' });
    expect((await request('GET', path('v1', 'while-down'))).status).toBe(404);
  });
});
