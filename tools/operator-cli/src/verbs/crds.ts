import { kubectl } from '../kubectl.js';
import type { OperatorProject } from '../operator-project.js';
import { parseVerbOptions, type Verb } from '../verb.js';

/** `kubectl apply -k config/crd`: installs the operator's CRDs in the current cluster. */
export async function installCrds(
  project: OperatorProject,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  await kubectl(['apply', '-k', 'config/crd'], { cwd: project.root, env });
}

/**
 * `kubectl delete -k config/crd`: removes the operator's CRDs (and every object of their
 * kinds) from the current cluster; CRDs already absent are fine.
 */
export async function uninstallCrds(
  project: OperatorProject,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  await kubectl(['delete', '--ignore-not-found=true', '-k', 'config/crd'], {
    cwd: project.root,
    env,
  });
}

export const installCrdsVerb: Verb = {
  name: 'install-crds',
  summary: 'kubectl apply -k config/crd (make install)',
  help: `Usage: ops-operator install-crds

Applies the operator's CRDs (config/crd) to the cluster of the current kubeconfig, as
kubebuilder's make install. (Not called \`install\`: pnpm would run an \`install\` script on
every pnpm install.) The operator's package.json runs \`ops-operator manifests\` first.`,
  async run(argv, context) {
    parseVerbOptions(this, argv, {});
    await installCrds(context.project(), context.env);
    return 0;
  },
};

export const uninstallCrdsVerb: Verb = {
  name: 'uninstall-crds',
  summary: 'kubectl delete -k config/crd (make uninstall)',
  help: `Usage: ops-operator uninstall-crds

Deletes the operator's CRDs (config/crd) from the cluster of the current kubeconfig, and
with them every object of their kinds, as kubebuilder's make uninstall. CRDs that are
already gone are fine.`,
  async run(argv, context) {
    parseVerbOptions(this, argv, {});
    await uninstallCrds(context.project(), context.env);
    return 0;
  },
};
