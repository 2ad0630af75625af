export { type BinaryControlPlane, startBinaryControlPlane } from './binary-control-plane.js';
export { configMap, deployment, namespace, pod } from './builders.js';
export { Environment, type EnvironmentOptions } from './environment.js';
export { consistently, eventually, type PollOptions } from './eventually.js';
export { type KubeRequestOptions, type KubeResponse, kubeRequest } from './kube-request.js';
export { loadManifests, parseManifests } from './load-manifests.js';
export { openWatch, type WatchEvent, type WatchStream } from './watch-stream.js';
