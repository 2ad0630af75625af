export { type BinaryControlPlane, startBinaryControlPlane } from './binary-control-plane.js';
export { configMap, deployment, namespace, pod } from './builders.js';
export {
  type ControlPlaneAssets,
  type ControlPlaneAssetsOptions,
  type ControlPlaneVersions,
  controlPlaneBinaries,
  defaultCacheDirectory,
  ensureControlPlaneAssets,
  missingGoMessage,
  pinnedControlPlane,
} from './control-plane-assets.js';
export {
  type ControlPlaneKind,
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
export { type KubeRequestOptions, type KubeResponse, kubeRequest } from './kube-request.js';
export { loadManifests, parseManifests } from './load-manifests.js';
export { openWatch, type WatchEvent, type WatchStream } from './watch-stream.js';
