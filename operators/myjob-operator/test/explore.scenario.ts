/**
 * The myjob-operator's scenario for fault exploration (@ops/envtest, README "Fault
 * exploration"): its real manager and controller setup, as src/main.ts runs them, on the local
 * plane's simulated cluster (`requires: 'pods'`: its kubelet finishes a Pod after its
 * run-duration annotation, 1 s by default). A user creates the sample of config/samples, whose
 * Pod runs to completion; edits its template (a completed MyJob never runs again); deletes the
 * finished Pod (the operator must never make a second one: the reference run leaves no Pod, so
 * a second Pod is a leaked object); and deletes the MyJob.
 *
 * The sample is v1beta1, which the API server converts through the operator's conversion
 * webhook; the steps apply it as that webhook's conversion makes it (v1, the storage version),
 * so that the scenario explores the reconciler and the webhook path is left to webhook
 * perturbations.
 *
 * `pnpm explore myjob-operator` explores it; test/explore.e2e.test.ts runs its quick mode.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Manager } from '@ops/core';
import { type Outcome, podRuntimeFields, type Scenario } from '@ops/envtest';
import { pino } from 'pino';
import YAML from 'yaml';
import { type MyJob, myJobResource } from '../src/api/v1/my-job.js';
import { addMyJobController } from '../src/operator.js';
import { myJobV1beta1Conversion } from '../src/webhook/my-job-v1beta1-conversion.js';

type V1beta1MyJob = Parameters<typeof myJobV1beta1Conversion.toHub>[0];

/** The sample of config/samples as the conversion webhook stores it (v1). */
function sample(): MyJob {
  const text = readFileSync(
    new URL('../config/samples/myjob_v1beta1_myjob.yaml', import.meta.url),
    'utf8',
  );
  return myJobV1beta1Conversion.toHub(YAML.parse(text) as V1beta1MyJob) as MyJob;
}

/** The sample with its Pod template's command changed, as a user edits it. */
function edited(job: MyJob): MyJob {
  const next = structuredClone(job);
  for (const container of next.spec.template.spec?.containers ?? [])
    container.command = ['perl', '-Mbignum=bpi', '-wle', 'print bpi(100)'];
  return next;
}

/** Whether the MyJob `name` of an outcome is completed. */
const completed = (name: string) => (outcome: Outcome) =>
  (outcome.objects[`${myJobResource.apiVersion}/MyJob`] ?? []).some(
    (item) =>
      (item as MyJob).metadata.name === name && (item as MyJob).status?.phase === 'completed',
  );

const job = sample();
const name = job.metadata.name ?? '';

export const scenario: Scenario<Manager> = {
  name: 'myjob-operator',
  crds: [myJobResource.crd()],
  environment: { requires: 'pods' },
  // The operator runs as its ServiceAccount, under the RBAC of its install (config/default),
  // as in a cluster: a write that install does not allow is refused.
  operatorConfig: fileURLToPath(new URL('../config/default', import.meta.url)),
  createManager: (settings) =>
    new Manager({ ...settings, logger: pino({ level: 'info' }, settings.logDestination) }),
  setup: (manager) => addMyJobController(manager),
  steps: [
    // The Pod runs for 1 s after the operator goes quiet: the step settles once it is completed.
    { name: 'create the sample', apply: [job], settledWhen: completed(name) },
    { name: 'edit its template', apply: [edited(job)] },
    { name: 'delete its finished Pod', delete: [{ apiVersion: 'v1', kind: 'Pod', name }] },
    {
      name: 'delete the MyJob',
      delete: [{ apiVersion: myJobResource.apiVersion, kind: 'MyJob', name }],
    },
  ],
  outcome: {
    kinds: [
      { apiVersion: myJobResource.apiVersion, kind: 'MyJob' },
      { apiVersion: 'v1', kind: 'Pod' },
    ],
    // What differs from run to run however the operator behaves: the uid of the Pod (recorded
    // in the MyJob's status), the times the operator stamps (second granularity, so a run may
    // or may not cross a second), and what the kubelet stamps and draws in a Pod's status.
    nondeterministic: [
      { kind: 'MyJob', path: 'status.podUID' },
      { kind: 'MyJob', path: 'status.startTime' },
      { kind: 'MyJob', path: 'status.completionTime' },
      { kind: 'MyJob', path: 'status.conditions.lastTransitionTime' },
      ...podRuntimeFields,
    ],
  },
};
