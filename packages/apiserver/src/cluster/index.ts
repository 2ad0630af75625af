export {
  type ClusterOptions,
  type ResolvedClusterOptions,
  resolveClusterOptions,
} from './cluster-options.js';
export type { Controller } from './controller.js';
export { type ClusterHost, ControllerClient, clusterUsers } from './controller-client.js';
export {
  DeploymentController,
  deploymentAnnotations,
  rolloutBounds,
} from './deployment-controller.js';
export { EndpointsController, endpointLabels, resolveTargetPort } from './endpoints-controller.js';
export { GarbageCollector } from './garbage-collector.js';
export { isJobFinished, JobController } from './job-controller.js';
export { type FinishedPhase, Kubelet, type KubeletOptions, nodeAddress } from './kubelet.js';
export { kubernetesFinalizer, NamespaceController } from './namespace-controller.js';
export {
  defaultPodRunDuration,
  parsePodExitCode,
  parsePodRunDuration,
  podExitCodeAnnotation,
  podRunDurationAnnotation,
} from './pod-lifecycle-annotations.js';
export { type PodOutcome, type PodOutcomeDefaults, podOutcome } from './pod-outcome.js';
export { podTemplateHash, podTemplateHashLabel } from './pod-template-hash.js';
export {
  type ClusterErrorRecord,
  ReconcileLoop,
  type ReconcileLoopOptions,
  type ReconcileResult,
} from './reconcile-loop.js';
export { comparePodsForDeletion, ReplicaSetController } from './replica-set-controller.js';
export { Scheduler } from './scheduler.js';
export { SimulatedCluster } from './simulated-cluster.js';
