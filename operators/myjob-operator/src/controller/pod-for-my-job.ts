import { type Pod, setControllerReference } from '@ops/core';
import type { MyJob } from '../api/v1/my-job.js';

/**
 * The Pod a MyJob runs: the MyJob's own name and namespace, the labels and annotations of
 * `spec.template.metadata` (its `name` is not used), `spec.template.spec` as the Pod's spec,
 * and the MyJob as its controller (so the Pod is garbage collected with it and its changes
 * wake the MyJob up).
 */
export function podForMyJob(myJob: MyJob): Pod {
  const { metadata, spec } = structuredClone(myJob.spec.template);
  const pod: Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: myJob.metadata.name,
      namespace: myJob.metadata.namespace,
      ...(metadata?.labels ? { labels: metadata.labels } : {}),
      ...(metadata?.annotations ? { annotations: metadata.annotations } : {}),
    },
    // The template's quantities may be numbers (`cpu: 1`), which the API server accepts and
    // returns as strings (`"1"`), the only form the Pod type gives them.
    spec: spec as Pod['spec'],
  };
  setControllerReference(myJob, pod);
  return pod;
}
