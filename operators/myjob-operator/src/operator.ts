import { Client, type Manager, type OperatorDefinition, pods } from '@ops/core';
import { myJobResource } from './api/v1/my-job.js';
import { myJobReconciler } from './controller/my-job.js';
import { myJobConversion } from './webhook/my-job-conversion.js';

/**
 * Adds the MyJob controller to a manager: it reconciles every MyJob, owns their Pods, and
 * watches Pods it does not own for the MyJob of the same name (to report, then clear, a name
 * conflict).
 */
export function addMyJobController(manager: Manager): void {
  const apiReader = new Client({ transport: manager.transport, restMapper: manager.restMapper });
  manager
    .controller('my-job')
    .for(myJobResource)
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
  setup: addMyJobController,
};
