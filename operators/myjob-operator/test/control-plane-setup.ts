/**
 * The global setup of `pnpm test:binaries`: envtest's, which builds or finds the control
 * plane's binaries before any file starts and keeps a control plane started ahead of each.
 */
export { setUpControlPlanes as default } from '@ops/envtest';
