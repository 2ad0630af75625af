// The conversion webhook's wiring in config/, as kubectl kustomize renders it: cert-manager
// injects its CA into the MyJob CRD in config/default, the operator itself in
// config/default-no-certmanager, and `ops-operator webhook-local` routes the CRD's conversion
// webhook to an operator running on this machine (the operator has no admission webhooks),
// which `ops-operator run` starts with its webhook server and local certificates.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { localWebhookHosts, localWebhookObjects, readOperatorProject } from '@ops/operator-cli';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';

const run = promisify(execFile);
const operatorRoot = fileURLToPath(new URL('..', import.meta.url));

interface Rendered {
  kind: string;
  metadata: { name: string; namespace?: string; annotations?: Record<string, string> };
  spec?: {
    conversion?: { strategy: string; webhook?: { clientConfig?: Record<string, unknown> } };
    dnsNames?: string[];
    template?: { spec: { containers: { args?: string[] }[]; volumes?: { name: string }[] } };
  };
}

async function kustomize(overlay: string): Promise<Rendered[]> {
  const { stdout } = await run(process.env.KUBECTL || 'kubectl', ['kustomize', overlay], {
    cwd: operatorRoot,
  });
  return YAML.parseAllDocuments(stdout).map((document) => document.toJS() as Rendered);
}

const crdOf = (objects: Rendered[]) =>
  objects.find((object) => object.kind === 'CustomResourceDefinition');
const managerOf = (objects: Rendered[]) => objects.find((object) => object.kind === 'Deployment');
const service = {
  name: 'myjob-operator-webhook-service',
  namespace: 'myjob-operator-system',
  path: '/convert',
};

describe('config/: the MyJob conversion webhook', () => {
  it('config/default: the CRD calls the webhook Service, its CA injected by cert-manager', async () => {
    const objects = await kustomize('config/default');
    const crd = crdOf(objects);
    expect(crd?.spec?.conversion).toEqual({
      strategy: 'Webhook',
      webhook: { clientConfig: { service }, conversionReviewVersions: ['v1'] },
    });
    expect(crd?.metadata.annotations).toEqual({
      'cert-manager.io/inject-ca-from': 'myjob-operator-system/myjob-operator-serving-cert',
    });
    const certificate = objects.find((object) => object.kind === 'Certificate');
    expect(certificate?.spec?.dnsNames).toEqual([
      'myjob-operator-webhook-service.myjob-operator-system.svc',
      'myjob-operator-webhook-service.myjob-operator-system.svc.cluster.local',
    ]);
    expect(objects.filter((object) => object.kind.endsWith('WebhookConfiguration')).length).toBe(0);
    const manager = managerOf(objects)?.spec?.template?.spec;
    expect(manager?.containers[0]?.args).not.toContain('--disable-webhooks');
    expect(manager?.volumes?.map((volume) => volume.name)).toEqual(['tmp', 'webhook-certs']);
  });

  it('config/default-no-certmanager: no cert-manager, the operator injects its own CA', async () => {
    const objects = await kustomize('config/default-no-certmanager');
    expect(
      objects.some((object) => object.kind === 'Certificate' || object.kind === 'Issuer'),
    ).toBe(false);
    const crd = crdOf(objects);
    expect(crd?.metadata.annotations ?? {}).toEqual({});
    expect(crd?.spec?.conversion?.webhook?.clientConfig).toEqual({ service });
    const manager = managerOf(objects)?.spec?.template?.spec;
    expect(manager?.containers[0]?.args).toContain('--webhook-cert-mode=self-managed');
    expect(manager?.volumes?.map((volume) => volume.name)).toEqual(['tmp']);
  });

  it('ops-operator sees the webhook Service and the conversion CRD, so `run` serves the conversion webhook with local certificates and `webhook-certs` sets its CA', () => {
    const project = readOperatorProject(operatorRoot);
    expect(project.webhooks).toEqual({
      service: service.name,
      secret: 'webhook-server-cert',
      conversionCrds: ['myjobs.myjob.github.com'],
    });
    expect(localWebhookHosts(project)).toContain(`${service.name}.${service.namespace}.svc`);
  });

  it('webhook-local routes the conversion webhook to this machine, trusting the local CA', async () => {
    const objects = await localWebhookObjects(readOperatorProject(operatorRoot), {
      hostIp: '192.0.2.10',
      port: 9443,
      caCert: 'LOCAL CA',
    });
    expect(objects.map((object) => object.kind)).toEqual([
      'Namespace',
      'Service',
      'Endpoints',
      'CustomResourceDefinition',
    ]);
    expect(objects[1]?.metadata).toMatchObject({
      name: service.name,
      namespace: service.namespace,
    });
    expect(objects[2]?.subsets).toEqual([
      {
        addresses: [{ ip: '192.0.2.10' }],
        ports: [{ name: 'webhook', port: 9443, protocol: 'TCP' }],
      },
    ]);
    expect(objects[3]?.spec.conversion.webhook.clientConfig).toEqual({
      service,
      caBundle: Buffer.from('LOCAL CA').toString('base64'),
    });
  });
});
