// `pnpm run install-crds` / `pnpm run uninstall-crds`: apply or delete the CRDs
// (config/crd) in the cluster of the current kubeconfig, as kubebuilder's `make install` and
// `make uninstall` do. (Not named `install`: pnpm would run that as a lifecycle script on
// every `pnpm install`.)
import { kubectl, operatorRoot, runIfMain, ScriptError } from './common.mjs';

/**
 * Applies config/crd to the current cluster.
 * @param {string} [root] the operator's directory
 */
export async function installCrds(root = operatorRoot) {
  await kubectl(['apply', '-k', 'config/crd'], { cwd: root });
}

/**
 * Deletes config/crd from the current cluster (every Application with it); absent is fine.
 * @param {string} [root] the operator's directory
 */
export async function uninstallCrds(root = operatorRoot) {
  await kubectl(['delete', '--ignore-not-found=true', '-k', 'config/crd'], { cwd: root });
}

runIfMain(import.meta.url, async () => {
  const verb = process.argv[2];
  if (verb === 'install') await installCrds();
  else if (verb === 'uninstall') await uninstallCrds();
  else throw new ScriptError('usage: node scripts/crds.mjs install|uninstall');
  return 0;
});
