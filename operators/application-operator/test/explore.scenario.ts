/**
 * The application-operator's scenario for fault exploration (`@ops/envtest`, README section
 * "Fault exploration"): its real manager and controller setup, as src/main.ts runs them
 * (`runOperator` adds `addApplicationController` to the manager; the webhooks are left out:
 * the steps apply only valid Applications with `enabled` set, so the defaulting and validating
 * webhooks would change nothing), driven through what a user does with the sample of
 * config/samples: create it, change its image and disable it, delete it.
 *
 * Quick mode runs it in test/explore.e2e.test.ts; exploration mode is
 * `pnpm explore application-operator` at the repository root.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type KubernetesObject, Manager } from '@ops/core';
import type { Scenario } from '@ops/envtest';
import { pino } from 'pino';
import YAML from 'yaml';
import { addApplicationController } from '../src/operator.js';

const operatorRoot = fileURLToPath(new URL('..', import.meta.url));
const apiVersion = 'core.crd.lixueduan.com/v1';

/** config/samples/core_v1_application.yaml, as a user applies it (the explorer sets its namespace). */
function sampleApplication(): KubernetesObject & { spec: Record<string, unknown> } {
  const text = readFileSync(`${operatorRoot}config/samples/core_v1_application.yaml`, 'utf8');
  return YAML.parse(text) as KubernetesObject & { spec: Record<string, unknown> };
}

/** The Application fault exploration drives: the sample, created, changed, then deleted. */
export const scenario: Scenario<Manager> = (() => {
  const sample = sampleApplication();
  const changed = { ...sample, spec: { ...sample.spec, image: 'nginx:1.23', enabled: false } };
  return {
    name: 'application-operator',
    // The CRD a user installs (`pnpm install-crds`): the generated one of config/crd/bases.
    // The plane is envtest's choice (`OPS_ENVTEST_CONTROL_PLANE`; the local API server by
    // default): the reference run is made on the same plane as the schedules it judges.
    environment: { crdDirectoryPaths: [`${operatorRoot}config/crd/bases`] },
    // The operator runs as its ServiceAccount, under the RBAC of its install (config/default),
    // as in a cluster: a write that install does not allow is refused.
    operatorConfig: `${operatorRoot}config/default`,
    createManager: (settings) =>
      new Manager({ ...settings, logger: pino({ level: 'info' }, settings.logDestination) }),
    setup: (manager) => addApplicationController(manager),
    steps: [
      { name: 'create the sample', apply: [sample] },
      { name: 'change its image and disable it', apply: [changed] },
      {
        name: 'delete it',
        delete: [{ apiVersion, kind: 'Application', name: sample.metadata?.name ?? '' }],
      },
    ],
    outcome: {
      kinds: [
        { apiVersion, kind: 'Application' },
        { apiVersion: 'apps/v1', kind: 'Deployment' },
      ],
      nondeterministic: [
        // The Ready condition's lastTransitionTime is the wall clock when the operator
        // changed it: it differs between any two runs. Its type, status, reason and message
        // are compared.
        { kind: 'Application', path: 'status.conditions.lastTransitionTime' },
        // The Deployment's conditions carry the wall clock of the API server's Deployment
        // controller in the same way (when it last probed and last changed each one).
        { kind: 'Deployment', path: 'status.conditions.lastTransitionTime' },
        { kind: 'Deployment', path: 'status.conditions.lastUpdateTime' },
      ],
    },
  };
})();
