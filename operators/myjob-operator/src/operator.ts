import { Client, type Manager, type OperatorDefinition, pods } from '@ops/core';
import type { BuilderOptions } from '@ops/core/controller';
import { myJobResource } from './api/v1/my-job.js';
import { myJobReconciler } from './controller/my-job.js';
import { myJobConversion } from './webhook/my-job-conversion.js';

/**
 * The controller options the myjob-operator adopts from issue #31 beyond the defaults (the
 * priority queue and read-your-writes it has without asking): a reconcile is a chain of API
 * calls (a Pod read from the API server when the cache has none, the Pod's create, the status
 * patch, an Event), each of which may hang up to the client's 60 s timeout, so a reconcile still
 * running after 30 s is aborted, counted (`controller_runtime_reconcile_timeouts_total`) and
 * retried with backoff, and its worker moves on. Metadata-only watches are not adopted: the
 * reconciler reads each Pod's phase, so the one Pod informer holds them whole.
 */
export const myJobControllerOptions: BuilderOptions = { reconciliationTimeoutMs: 30_000 };

/** Settings of {@link addMyJobController}. */
export interface MyJobControllerSettings {
  /**
   * Controller options applied over {@link myJobControllerOptions} (the benchmarks turn the
   * operator's adopted features off with them, to measure the runtime without them).
   */
  controller?: BuilderOptions;
}

/**
 * Adds the MyJob controller to a manager: it reconciles every MyJob, owns their Pods, and
 * watches Pods it does not own for the MyJob of the same name (to report, then clear, a name
 * conflict). Its options are {@link myJobControllerOptions}, with `settings.controller` over
 * them.
 */
export function addMyJobController(manager: Manager, settings: MyJobControllerSettings = {}): void {
  const apiReader = new Client({ transport: manager.transport, restMapper: manager.restMapper });
  manager
    .controller('my-job')
    .for(myJobResource)
    .withOptions({ ...myJobControllerOptions, ...settings.controller })
    .owns(pods)
    .watches(pods, (pod) => {
      const owned = (pod.metadata.ownerReferences ?? []).some(
        (ref) => ref.controller && ref.kind === myJobResource.kind,
      );
      return owned
        ? []
        : [{ namespace: pod.metadata.namespace ?? '', name: pod.metadata.name ?? '' }];
    })
    .complete(
      myJobReconciler({
        client: manager.client,
        apiReader,
        recorder: manager.eventRecorder('myjob-operator'),
      }),
    );
}

/**
 * The myjob-operator for `runOperator` (src/main.ts): its name (also the kustomize namePrefix of
 * config/default), its Lease, its controller, and the conversion webhook of MyJob v1beta1
 * (which starts the webhook server; the operator has no admission webhooks).
 */
export const myjobOperator: OperatorDefinition = {
  name: 'myjob-operator',
  leaderElectionId: 'myjob-operator.myjob.github.com',
  conversions: [myJobConversion],
  setup: (manager) => addMyJobController(manager),
};
