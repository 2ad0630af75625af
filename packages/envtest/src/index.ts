export { applyObjects } from './apply-objects.js';
export { type BinaryControlPlane, startBinaryControlPlane } from './binary-control-plane.js';
export { configMap, deployment, namespace, pod } from './builders.js';
export {
  type ChartInstallOptions,
  type ChartLifecycle,
  type ChartOperator,
  type ChartOperatorOptions,
  chartLifecycle,
  cleanChartLifecycle,
  type InstalledChart,
  installChart,
  installChartOperator,
  installedManagerArgs,
} from './chart-operator.js';
export {
  ChartRelease,
  type ChartReleaseLifecycleOptions,
  type ChartReleaseOptions,
} from './chart-release.js';
export {
  installWebhookChartOperator,
  type WebhookChartOperator,
  type WebhookChartOperatorOptions,
} from './chart-webhook-operator.js';
export {
  type ClusterControlPlane,
  type ClusterControlPlaneOptions,
  startClusterControlPlane,
} from './cluster-control-plane.js';
export {
  type ControlPlaneAssets,
  type ControlPlaneAssetsOptions,
  type ControlPlaneVersions,
  controlPlaneBinaries,
  defaultCacheDirectory,
  ensureControlPlaneAssets,
  kubernetesVersionVariable,
  missingGoMessage,
  type PinnedControlPlane,
  pinnedControlPlane,
  pinnedControlPlanes,
} from './control-plane-assets.js';
export { setUpControlPlanes } from './control-plane-global-setup.js';
export {
  type ControlPlanePool,
  type ControlPlanePoolOptions,
  controlPlanePoolVariable,
  startControlPlanePool,
} from './control-plane-pool.js';
export {
  type ControlPlaneKind,
  chooseControlPlane,
  controlPlaneVariable,
  Environment,
  type EnvironmentOptions,
  resolveControlPlane,
} from './environment.js';
export { ControlPlaneAssetsError } from './errors/control-plane-assets-error.js';
export {
  consistently,
  defaultEventuallyTimeoutMs,
  eventually,
  type PollOptions,
} from './eventually.js';
export { assertQuickExploration } from './explore/assert-quick-exploration.js';
export {
  describeFailure,
  type ExplorationFailure,
  type ExplorationReport,
  type ExploreOptions,
  exploreLong,
  exploreQuick,
  type PlaneLimits,
  type QuickExploreOptions,
  referenceRun,
  replayVariable,
  summarize,
} from './explore/explorer.js';
export {
  describeApiPath,
  FaultProxy,
  type FaultProxyHooks,
  type ProxiedRequest,
  type ProxyCounters,
  type ProxyDecision,
} from './explore/fault-proxy.js';
export {
  explorerLeaseName,
  explorerLeaseTiming,
  LeaderTakeover,
  type Replica,
  takeoverBoundMs,
} from './explore/leader-takeover.js';
export {
  type NamespacedResource,
  namespacedResources,
  removeNamespace,
} from './explore/namespace-cleanup.js';

export {
  type NondeterministicField,
  type Outcome,
  type OutcomeKind,
  type OutcomeOptions,
  outcomeDifferences,
  readOutcome,
  renameNamespace,
} from './explore/outcome.js';
export { podRuntimeFields } from './explore/pod-runtime-fields.js';
export {
  type ExplorerSettings,
  type RunLimits,
  type RunRecord,
  runScenario,
  type Scenario,
  type ScenarioStep,
} from './explore/run.js';
export {
  type PlaneScenario,
  RunPlane,
  type RunPlaneOptions,
  type RunSpace,
} from './explore/run-plane.js';
export {
  isWebhookCallFailure,
  RunWebhooks,
  type ScenarioWebhooks,
  type ServedWebhooks,
} from './explore/run-webhooks.js';

export {
  drawPerturbation,
  explorationSchedule,
  type Perturbation,
  type PerturbationKind,
  parseScheduleId,
  perturbationKinds,
  perturbationPosition,
  quickSchedules,
  type ReferenceShape,
  type Schedule,
  SeededRandom,
  scheduleId,
  webhookSlowWindowMs,
} from './explore/schedule.js';
export { WebhookProxy } from './explore/webhook-proxy.js';
export { freePort } from './free-port.js';
export { hardenedApiServerArgs } from './hardened-api-server-args.js';
export { type KubeRequestOptions, type KubeResponse, kubeRequest } from './kube-request.js';
export { type KwokStage, type KwokStagesOptions, kwokStages } from './kwok-stages.js';
export { loadManifests, parseManifests } from './load-manifests.js';
export { type OperatorEnvironment, startOperatorEnvironment } from './operator-environment.js';
export {
  OperatorHarness,
  type OperatorHarnessOptions,
  type ServingCertificateDirectory,
  type WebhookServerLike,
} from './operator-harness.js';
export {
  type OperatorManagerLike,
  type OperatorManagerOptions,
  type OperatorManagerSettings,
  type RunningOperatorManager,
  startOperatorManager,
} from './operator-manager.js';
export {
  applyNamespace,
  dryRunCreatePod,
  managerPodOf,
  operatorNamespaceOf,
  podSecurityEnforceLabel,
} from './pod-security.js';
export { type RenderedOperator, renderOperator } from './rendered-operator.js';
export {
  createServiceAccountIdentity,
  type IssueServiceAccountToken,
  type ServiceAccountIdentity,
  type ServiceAccountOptions,
  tokenRequestIssuer,
} from './service-account-identity.js';
export { openWatch, type WatchEvent, type WatchStream } from './watch-stream.js';
export { type WebhookUrlOptions, webhooksByUrl } from './webhooks-by-url.js';
export {
  type HelmPostRenderer,
  renderWebhooksByUrl,
  webhooksByUrlPluginName,
  webhooksByUrlPostRenderer,
} from './webhooks-by-url-post-renderer.js';
