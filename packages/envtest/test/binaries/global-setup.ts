/**
 * The global setup of `pnpm test:binaries`: builds or finds the control plane's binaries
 * before any file starts, and keeps a control plane started ahead of each
 * ({@link setUpControlPlanes}).
 */
export { setUpControlPlanes as default } from '../../src/control-plane-global-setup.js';
