// The sidecar-operator end to end, as it runs in a cluster: the CRD installed from config/crd/bases
// and the controller running as the manager's ServiceAccount under the RBAC of
// `kubectl kustomize config/default`, both as `pnpm run manifests` generated them. `pnpm test`
// runs it on the local API server (@ops/envtest), `pnpm test:binaries` on real etcd +
// kube-apiserver, whose authorizer then judges the generated ClusterRole.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client, type KubernetesObject, Manager } from '@ops/core';
import { Environment, eventually } from '@ops/envtest';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { type SidecarSet, sidecarSetResource } from '../src/api/v1alpha1/sidecar-set.js';
import { addSidecarSetController } from '../src/operator.js';

const run = promisify(execFile);
const operatorRoot = fileURLToPath(new URL('..', import.meta.url));
const config = (path: string) => join(operatorRoot, 'config', path);

let env: Environment;
let admin: Client;
const stop = new AbortController();
let running: Promise<void> | undefined;

beforeAll(async () => {
  env = await Environment.start({
    apiServer: { rbac: true },
    crdDirectoryPaths: [config('crd/bases')],
  });
  admin = new Client({ kubeConfig: env.kubeConfig });
  const { stdout } = await run(process.env.KUBECTL || 'kubectl', ['kustomize', config('default')]);
  const identity = await env.serviceAccount({
    namespace: 'sidecar-operator-system',
    name: 'sidecar-operator-controller-manager',
    rbac: YAML.parseAllDocuments(stdout).map((document) => document.toJS() as KubernetesObject),
  });
  const manager = new Manager({
    kubeConfig: identity.kubeConfig,
    logger: pino({ level: process.env.OPERATOR_LOG_LEVEL ?? 'silent' }),
    metricsBindAddress: false,
    healthProbeBindAddress: false,
  });
  addSidecarSetController(manager);
  running = manager.start(stop.signal);
}, 60_000);

afterAll(async () => {
  stop.abort();
  await running;
  admin?.close();
  await env?.stop();
});

const read = (sample: SidecarSet) =>
  admin.get(sidecarSetResource, sample.metadata.name ?? '', sample.metadata.namespace);
const ready = (object: SidecarSet) =>
  object.status?.conditions?.find((condition) => condition.type === 'Ready');

describe('sidecar-operator, end to end', () => {
  let sample: SidecarSet;

  it('sets the Ready condition of the sample in config/samples', async () => {
    sample = YAML.parse(
      await readFile(config('samples/apps_v1alpha1_sidecarset.yaml'), 'utf8'),
    ) as SidecarSet;
    await admin.create(sample);
    const reconciled = await eventually(async () => {
      const object = await read(sample);
      return ready(object)?.status === 'True' && object;
    });
    expect(ready(reconciled)).toMatchObject({
      reason: 'Reconciled',
      message: `observed spec.message ${JSON.stringify(sample.spec.message)}`,
      observedGeneration: reconciled.metadata.generation,
    });
    expect(reconciled.status?.observedGeneration).toBe(reconciled.metadata.generation);
  });

  it('follows a change of the spec', async () => {
    await admin.patch(sample, { spec: { message: 'changed' } }, 'merge');
    const reconciled = await eventually(async () => {
      const object = await read(sample);
      return object.status?.observedGeneration === object.metadata.generation && object;
    });
    expect(ready(reconciled)?.message).toBe('observed spec.message "changed"');
  });

  it('refuses a spec the schema rejects', async () => {
    await expect(admin.patch(sample, { spec: { message: '' } }, 'merge')).rejects.toThrow(
      /message/,
    );
  });
});
