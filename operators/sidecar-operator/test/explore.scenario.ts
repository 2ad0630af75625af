/**
 * The sidecar-operator's scenario for fault exploration (@ops/envtest, README "Fault
 * exploration"): its real manager and setup (`createSidecarOperator().setup`, as src/main.ts
 * runs it through runOperator) on the local plane's simulated cluster (`requires: 'pods'`: its
 * kubelet starts Pods and keeps them Ready). What is explored is the SidecarSet controller:
 * the status it keeps (matched, updated, ready Pods) while a user runs Pods and changes the
 * sample of config/samples, and the admission webhooks it serves as deployed: each Pod of the
 * steps goes through `mpod.kb.io`, which gives one created after the SidecarSet its sidecar
 * containers and hash annotation, answering from the incarnation's cache; the SidecarSets go
 * through `vsidecarset.kb.io`. Both have `failurePolicy: Fail`, so while a webhook is down a
 * step is refused and applied again, as a user would, and never admitted half-made.
 *
 * `pnpm explore sidecar-operator` explores it; test/explore.e2e.test.ts runs its quick mode.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Manager, type Pod } from '@ops/core';
import { WebhookServer } from '@ops/core/webhook';
import { type Outcome, parseManifests, podRuntimeFields, type Scenario } from '@ops/envtest';
import { pino } from 'pino';
import YAML from 'yaml';
import { type SidecarSet, sidecarSetResource } from '../src/api/v1alpha1/sidecar-set.js';
import { createSidecarOperator, registerWebhooks, type SidecarOperator } from '../src/operator.js';

/** The sample of config/samples. */
function sample(): SidecarSet {
  const text = readFileSync(
    new URL('../config/samples/apps_v1alpha1_sidecarset.yaml', import.meta.url),
    'utf8',
  );
  return YAML.parse(text) as SidecarSet;
}

/** The sample with its sidecar's image changed, as a user rolls out a new one. */
function upgraded(sidecarSet: SidecarSet): SidecarSet {
  const next = structuredClone(sidecarSet);
  for (const container of next.spec.containers ?? []) container.image = 'busybox:1.37';
  return next;
}

/** A Pod `name` labelled `app: <app>`, as a user's workload creates it. */
function pod(name: string, app: string): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, labels: { app } },
    spec: { containers: [{ name: 'main', image: 'nginx:1.27' }] },
  };
}

/** Whether every Pod of an outcome is Ready (the simulated kubelet makes them so in time). */
const podsReady = (outcome: Outcome) =>
  (outcome.objects['v1/Pod'] ?? []).every((item) =>
    (item as Pod).status?.conditions?.some(
      (condition) => condition.type === 'Ready' && condition.status === 'True',
    ),
  );

const logging = sample();
const name = logging.metadata?.name ?? '';

/** The webhook configurations ops-manifests generated (config/webhook/manifests.yaml). */
const webhookConfigurations = parseManifests(
  readFileSync(new URL('../config/webhook/manifests.yaml', import.meta.url), 'utf8'),
  'config/webhook/manifests.yaml',
);

/**
 * Each incarnation's operator, by its manager: `setup` binds the Pod webhook's SidecarSet
 * cache to the manager's, and that incarnation's webhook server serves the same webhooks, as
 * src/main.ts (runOperator) wires them.
 */
const operators = new WeakMap<Manager, SidecarOperator>();

export const scenario: Scenario<Manager> = {
  name: 'sidecar-operator',
  crds: [sidecarSetResource.crd()],
  environment: { requires: 'pods' },
  // The operator runs as its ServiceAccount, under the RBAC of its install (config/default),
  // as in a cluster: a write that install does not allow is refused.
  operatorConfig: fileURLToPath(new URL('../config/default', import.meta.url)),
  createManager: (settings) =>
    new Manager({ ...settings, logger: pino({ level: 'info' }, settings.logDestination) }),
  setup: (manager) => {
    const operator = createSidecarOperator();
    operators.set(manager, operator);
    operator.setup(manager);
  },
  // Its webhooks as deployed (both failurePolicy: Fail): every Pod of the steps is admitted
  // through mpod.kb.io, which injects the sidecars, and the SidecarSets through
  // vsidecarset.kb.io; webhook-down and webhook-slow disturb them.
  webhooks: {
    configurations: webhookConfigurations,
    createServer: (certDir, manager) => {
      const server = new WebhookServer({
        port: 0,
        host: '127.0.0.1',
        certDir,
        watchCertDir: false,
      });
      const operator = operators.get(manager);
      if (operator === undefined)
        throw new Error('the sidecar-operator was not set up on this manager');
      registerWebhooks(operator, server);
      return server;
    },
    probes: [pod('webhook-probe', 'probe'), { ...logging, metadata: { name: 'webhook-probe' } }],
  },
  steps: [
    // Pods that run before the SidecarSet exists: not injected.
    {
      name: 'run Pods before the SidecarSet',
      apply: [pod('web-early', 'web'), pod('db', 'db')],
      settledWhen: podsReady,
    },
    { name: 'create the sample', apply: [logging] },
    {
      name: 'run a web Pod, injected',
      apply: [pod('web-injected', 'web')],
      settledWhen: podsReady,
    },
    { name: 'change the sidecar image', apply: [upgraded(logging)] },
    {
      name: 'delete the injected Pod',
      delete: [{ apiVersion: 'v1', kind: 'Pod', name: 'web-injected' }],
    },
    {
      name: 'delete the sample',
      delete: [{ apiVersion: sidecarSetResource.apiVersion, kind: 'SidecarSet', name }],
    },
  ],
  outcome: {
    kinds: [
      { apiVersion: sidecarSetResource.apiVersion, kind: 'SidecarSet' },
      { apiVersion: 'v1', kind: 'Pod' },
    ],
    // The time the operator stamps (second granularity: a run may or may not cross a second)
    // and what the kubelet stamps and draws in a Pod's status; nothing else.
    nondeterministic: [
      { kind: 'SidecarSet', path: 'status.conditions.0.lastTransitionTime' },
      ...podRuntimeFields,
    ],
  },
};
