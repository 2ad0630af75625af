/**
 * The balancer-operator's scenario for fault exploration (`@ops/envtest`, README section
 * "Fault exploration"): its real manager and controller setup, as src/main.ts runs them
 * (`runOperator` adds `addBalancerController` with its defaults), driven through what a user
 * does with the sample Balancer of config/samples: create it; change its weights and ports and
 * drop a backend (whose Service becomes obsolete and is deleted); delete it (its children go
 * with it by garbage collection). The sample's echo Pods are left out: they are traffic
 * targets only, and nothing the operator writes depends on them.
 *
 * Quick mode runs it in test/explore.e2e.test.ts; exploration mode is
 * `pnpm explore balancer-operator` at the repository root.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Manager } from '@ops/core';
import type { Scenario } from '@ops/envtest';
import { pino } from 'pino';
import YAML from 'yaml';
import type { Balancer } from '../src/api/v1alpha1/balancer.js';
import { addBalancerController } from '../src/operator.js';

const operatorRoot = fileURLToPath(new URL('..', import.meta.url));
const apiVersion = 'exposer.hliangzhao.io/v1alpha1';

/** config/samples/exposer_v1alpha1_balancer.yaml, as a user applies it (the explorer sets its namespace). */
function sampleBalancer(): Balancer {
  const text = readFileSync(`${operatorRoot}config/samples/exposer_v1alpha1_balancer.yaml`, 'utf8');
  return YAML.parse(text) as Balancer;
}

/** The Balancer fault exploration drives: the sample, created, changed, then deleted. */
export const scenario: Scenario<Manager> = (() => {
  const sample = sampleBalancer();
  const [v1, v2] = sample.spec.backends;
  if (v1 === undefined || v2 === undefined)
    throw new Error(
      'config/samples/exposer_v1alpha1_balancer.yaml lists fewer than two backends: the explore scenario drops the third and reweights the first two',
    );
  const changed: Balancer = {
    ...sample,
    spec: {
      ...sample.spec,
      // Reweighted, the third backend dropped, a second port added.
      backends: [
        { ...v1, weight: 70 },
        { ...v2, weight: 30 },
      ],
      ports: [
        ...sample.spec.ports,
        { name: 'metrics', protocol: 'TCP', port: 9090, targetPort: 9090 },
      ],
    },
  };
  return {
    name: 'balancer-operator',
    // The CRD a user installs (`pnpm install-crds`): the generated one of config/crd/bases.
    // The plane is envtest's choice (`OPS_ENVTEST_CONTROL_PLANE`; the local API server by
    // default): the reference run is made on the same plane as the schedules it judges.
    environment: { crdDirectoryPaths: [`${operatorRoot}config/crd/bases`] },
    // The operator runs as its ServiceAccount, under the RBAC of its install (config/default),
    // as in a cluster: a write that install does not allow is refused.
    operatorConfig: `${operatorRoot}config/default`,
    createManager: (settings) =>
      new Manager({ ...settings, logger: pino({ level: 'info' }, settings.logDestination) }),
    setup: (manager) => addBalancerController(manager),
    steps: [
      { name: 'create the sample', apply: [sample] },
      { name: 'reweight, drop a backend and add a port', apply: [changed] },
      {
        name: 'delete it',
        delete: [{ apiVersion, kind: 'Balancer', name: sample.metadata?.name ?? '' }],
      },
    ],
    outcome: {
      kinds: [
        { apiVersion, kind: 'Balancer' },
        { apiVersion: 'v1', kind: 'Service' },
        { apiVersion: 'v1', kind: 'ConfigMap' },
        { apiVersion: 'apps/v1', kind: 'Deployment' },
      ],
      nondeterministic: [
        // The Ready condition's lastTransitionTime is the wall clock when the operator
        // changed it: it differs between any two runs.
        { kind: 'Balancer', path: 'status.conditions.lastTransitionTime' },
        // The API server allocates each ClusterIP Service a free address of its range,
        // whichever it finds: not the operator's choice.
        { kind: 'Service', path: 'spec.clusterIP' },
        { kind: 'Service', path: 'spec.clusterIPs' },
        // The API server's Deployment controller stamps its conditions with its wall clock.
        { kind: 'Deployment', path: 'status.conditions.lastTransitionTime' },
        { kind: 'Deployment', path: 'status.conditions.lastUpdateTime' },
        // The Pod template's only annotation is the hash of the nginx configuration, which
        // names the backend Services by their namespace: on the real planes each run has its
        // own namespace (the ConfigMap itself is compared with the namespace normalised).
        { kind: 'Deployment', path: 'spec.template.metadata.annotations' },
      ],
    },
  };
})();
