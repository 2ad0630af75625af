// The cluster verbs end to end, as a user runs them: `main` (the CLI without a child process)
// on the fixture operator, against a local API server (@ops/apiserver) through kubectl and a
// kubeconfig, like any cluster.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApiServer } from '@ops/apiserver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { type K8sObject, kubectl } from '../src/kubectl.js';
import { main } from '../src/main.js';
import { certificatesUsable } from '../src/serving-certificates.js';
import {
  capture,
  conversionCrd,
  copyFixture,
  emptyDirectory,
  removeCopies,
} from './fixture-operator.js';

let server: ApiServer;
let env: NodeJS.ProcessEnv;
let root: string;

beforeAll(async () => {
  server = await ApiServer.start();
  const kubeconfig = join(emptyDirectory(), 'kubeconfig');
  writeFileSync(kubeconfig, server.kubeconfig());
  env = { ...process.env, KUBECONFIG: kubeconfig, IMG: 'ghcr.io/acme/sample:1.2.3' };
  root = copyFixture();
});
afterAll(async () => {
  await server?.stop();
  removeCopies();
});

/** Runs the CLI in the fixture operator; throws with its stderr unless `expected` status. */
async function cli(args: string[], expected = 0, environment = env) {
  const { output, io } = capture();
  const status = await main(args, { cwd: root, env: environment, ...io });
  if (status !== expected) {
    throw new Error(`ops-operator ${args.join(' ')} exited ${status}: ${output.stderr}`);
  }
  return output;
}

/** The object, or undefined when it does not exist. */
async function get(kind: string, name: string, namespace?: string): Promise<K8sObject | undefined> {
  const text = await kubectl(
    [
      'get',
      kind,
      name,
      '--ignore-not-found',
      '-o',
      'json',
      ...(namespace ? ['-n', namespace] : []),
    ],
    { capture: true, env },
  );
  return text.trim() === '' ? undefined : (JSON.parse(text) as K8sObject);
}

const decode = (value: string) => Buffer.from(value, 'base64').toString('utf8');

describe('install-crds and uninstall-crds', () => {
  it('apply config/crd and remove it again, absent being fine', async () => {
    await cli(['install-crds']);
    expect((await get('crd', 'widgets.example.com'))?.spec.names.kind).toBe('Widget');
    await cli(['uninstall-crds']);
    expect(await get('crd', 'widgets.example.com')).toBeUndefined();
    await cli(['uninstall-crds']);
  });
});

describe('webhook-local', () => {
  it('routes the webhook Service to this machine, and --delete removes the route', async () => {
    const certDir = join(emptyDirectory(), 'certs');
    const output = await cli([
      'webhook-local',
      '--host-ip',
      '127.0.0.1',
      '--port',
      '9555',
      '--cert-dir',
      certDir,
    ]);
    expect(output.stdout).toBe(
      `The cluster now sends the webhooks to https://127.0.0.1:9555. Serve them with:\n  ops-operator run -- --webhook-port 9555 --webhook-cert-dir ${certDir}\nUndo with: ops-operator webhook-local --delete\n`,
    );
    expect(output.stderr).toContain(
      'a real kube-apiserver rejects loopback addresses in Endpoints',
    );
    const service = await get('service', 'sample-webhook-service', 'sample-system');
    expect(service?.spec.selector).toBeUndefined();
    expect(service?.spec.ports).toEqual([
      { name: 'webhook', port: 443, protocol: 'TCP', targetPort: 9555 },
    ]);
    const endpoints = await get('endpoints', 'sample-webhook-service', 'sample-system');
    expect(endpoints?.subsets).toEqual([
      {
        addresses: [{ ip: '127.0.0.1' }],
        ports: [{ name: 'webhook', port: 9555, protocol: 'TCP' }],
      },
    ]);

    const removed = await cli(['webhook-local', '--delete']);
    expect(removed.stdout).toBe(
      'removed the local webhook Service, Endpoints and webhook configurations\n',
    );
    expect(await get('service', 'sample-webhook-service', 'sample-system')).toBeUndefined();
    expect(await get('endpoints', 'sample-webhook-service', 'sample-system')).toBeUndefined();
  }, 60_000);
});

describe('deploy, webhook-certs and undeploy without cert-manager', () => {
  it('refuse the cert-manager overlay when cert-manager is missing (and say what IMG defaults to)', async () => {
    const { IMG: _unset, ...withoutImage } = env;
    const output = await cli(['deploy'], 1, withoutImage);
    expect(output.stderr).toContain(
      "deploy: IMG is not set, so the manager runs sample-operator:latest: the cluster's nodes must have that image (kind: kind load docker-image sample-operator:latest); to use a registry, set IMG=<registry>/sample-operator:<tag>.\n",
    );
    expect(output.stderr).toContain(
      'ops-operator deploy: cert-manager is not installed in this cluster (no CRD certificates.cert-manager.io). Install it',
    );
  });

  it('install the operator with a generated Secret trusted by its only webhook configuration, keep it, and remove it all', async () => {
    const first = await cli(['deploy', '--without-cert-manager']);
    expect(first.stdout).toBe('webhook certificate: generated a new CA and certificate\n');
    const deployment = await get('deployment', 'sample-controller-manager', 'sample-system');
    expect(deployment?.spec.template.spec.containers[0].image).toBe('ghcr.io/acme/sample:1.2.3');
    const secret = await get('secret', 'sample-serving-cert', 'sample-system');
    expect(secret?.type).toBe('kubernetes.io/tls');
    expect(secret?.metadata.labels).toEqual({
      'app.kubernetes.io/name': 'sample-operator',
      'app.kubernetes.io/managed-by': 'webhook-certs',
    });
    const set = {
      caCert: decode(secret?.data['ca.crt']),
      cert: decode(secret?.data['tls.crt']),
      key: decode(secret?.data['tls.key']),
    };
    expect(
      certificatesUsable(set, [
        'sample-webhook-service.sample-system.svc',
        'sample-webhook-service.sample-system.svc.cluster.local',
      ]),
    ).toBe(true);
    const configuration = await get(
      'validatingwebhookconfiguration',
      'sample-validating-webhook-configuration',
    );
    expect(decode(configuration?.webhooks[0].clientConfig.caBundle)).toBe(set.caCert);

    const again = await cli(['deploy', '--without-cert-manager']);
    expect(again.stdout).toBe('webhook certificate: kept the existing Secret\n');
    const manual = await cli(['webhook-certs']);
    expect(manual.stdout).toBe(
      'kept Secret sample-serving-cert; caBundle set on validatingwebhookconfiguration/sample-validating-webhook-configuration\n',
    );
    expect(
      (await get('secret', 'sample-serving-cert', 'sample-system'))?.metadata.resourceVersion,
    ).toBe(secret?.metadata.resourceVersion);

    await cli(['undeploy', '--without-cert-manager']);
    expect(await get('deployment', 'sample-controller-manager', 'sample-system')).toBeUndefined();
    expect(
      await get('validatingwebhookconfiguration', 'sample-validating-webhook-configuration'),
    ).toBeUndefined();
  }, 60_000);
});

describe('deploy and webhook-certs for an operator that makes its own certificates', () => {
  it('apply config/default-no-certmanager as it is, and say there is nothing to set', async () => {
    const selfManaged = copyFixture();
    writeFileSync(
      join(selfManaged, 'config', 'default-no-certmanager', 'kustomization.yaml'),
      [
        'resources:',
        '  - ../default',
        'patches:',
        '  - target: { group: apps, kind: Deployment }',
        '    patch: |-',
        '      - op: add',
        '        path: /spec/template/spec/containers/0/args',
        '        value: [--webhook-cert-mode=self-managed]',
        '',
      ].join('\n'),
    );
    const run = async (args: string[]) => {
      const { output, io } = capture();
      const status = await main(args, { cwd: selfManaged, env, ...io });
      return { status, ...output };
    };
    const deployed = await run(['deploy', '--without-cert-manager']);
    expect(deployed.stderr).toBe('');
    expect(deployed.status).toBe(0);
    expect(deployed.stdout).toBe(
      'webhook certificate: made by the operator (--webhook-cert-mode=self-managed)\n',
    );
    const deployment = await get('deployment', 'sample-controller-manager', 'sample-system');
    expect(deployment?.spec.template.spec.containers[0].args).toEqual([
      '--webhook-cert-mode=self-managed',
    ]);
    expect(await get('secret', 'sample-serving-cert', 'sample-system')).toBeUndefined();
    const configuration = await get(
      'validatingwebhookconfiguration',
      'sample-validating-webhook-configuration',
    );
    expect(configuration?.webhooks[0].clientConfig.caBundle).toBeUndefined();

    const manual = await run(['webhook-certs']);
    expect(manual.status).toBe(1);
    expect(manual.stderr).toContain(
      'sample-operator makes its own webhook certificates (config/default-no-certmanager runs it with --webhook-cert-mode=self-managed)',
    );
    expect(await get('secret', 'sample-serving-cert', 'sample-system')).toBeUndefined();

    expect((await run(['undeploy', '--without-cert-manager'])).status).toBe(0);
  }, 60_000);
});

describe('webhook-certs for an operator whose only webhook is a CRD conversion webhook', () => {
  it("sets the CA of a new Secret as the caBundle of the CRD's conversion webhook", async () => {
    const converting = copyFixture();
    // No admission webhooks: config/webhook is the Service the CRD's conversion webhook calls.
    rmSync(join(converting, 'config/webhook/manifests.yaml'));
    writeFileSync(
      join(converting, 'config/webhook/kustomization.yaml'),
      'resources:\n  - service.yaml\n',
    );
    writeFileSync(
      join(converting, 'config/crd/bases/example.com_widgets.yaml'),
      YAML.stringify(
        conversionCrd('example.com', 'Widget', {
          name: 'sample-webhook-service',
          namespace: 'sample-system',
        }),
      ),
    );
    const run = async (args: string[]) => {
      const { output, io } = capture();
      const status = await main(args, { cwd: converting, env, ...io });
      if (status !== 0)
        throw new Error(`ops-operator ${args.join(' ')} exited ${status}: ${output.stderr}`);
      return output;
    };
    const caBundle = async () =>
      decode(
        (await get('crd', 'widgets.example.com'))?.spec.conversion.webhook.clientConfig.caBundle ??
          '',
      );
    const caCert = async () =>
      decode((await get('secret', 'sample-serving-cert', 'sample-system'))?.data['ca.crt'] ?? '');
    try {
      await run(['deploy', '--without-cert-manager']);
      const deployed = await caCert();
      expect(deployed).toContain('BEGIN CERTIFICATE');
      expect(await caBundle()).toBe(deployed);
      // A new CA (the Secret gone, as when it is rotated by hand): webhook-certs makes one
      // and the CRD trusts it.
      await kubectl(['delete', 'secret', 'sample-serving-cert', '-n', 'sample-system'], {
        capture: true,
        env,
      });
      const output = await run(['webhook-certs']);
      expect(output.stdout).toBe(
        'created Secret sample-serving-cert; caBundle set on customresourcedefinition/widgets.example.com\n',
      );
      const rotated = await caCert();
      expect(rotated).toContain('BEGIN CERTIFICATE');
      expect(rotated).not.toBe(deployed);
      expect(await caBundle()).toBe(rotated);
    } finally {
      await run(['undeploy', '--without-cert-manager']);
    }
  }, 60_000);
});
