// `pnpm run deploy` / `pnpm run undeploy`: install or remove the operator (config/default)
// in the cluster of the current kubeconfig, with the image from IMG, as kubebuilder's
// `make deploy` / `make undeploy`.
//
//   node scripts/deploy.mjs deploy [--without-cert-manager]
//   node scripts/deploy.mjs undeploy [--without-cert-manager]
//
// With cert-manager (the default) the webhook certificate is issued by cert-manager. With
// --without-cert-manager, config/default-no-certmanager is applied together with a Secret
// holding a generated CA and certificate, and the webhook configurations get that CA as their
// caBundle (an existing valid Secret is kept).
import { ensureClusterWebhookSecret, withCaBundle } from './certificates.mjs';
import {
  imageFromEnvironment,
  kubectl,
  kustomize,
  operatorRoot,
  runIfMain,
  ScriptError,
  setManagerImage,
  takeFlag,
  toYamlStream,
} from './common.mjs';

/** Fails with what to do when cert-manager's CRDs are not in the cluster. */
async function requireCertManager() {
  const found = (
    await kubectl(
      [
        'get',
        'customresourcedefinition',
        'certificates.cert-manager.io',
        '--ignore-not-found',
        '-o',
        'name',
      ],
      { capture: true },
    )
  ).trim();
  if (found === '') {
    throw new ScriptError(
      'cert-manager is not installed in this cluster (no CRD certificates.cert-manager.io). Install it (https://cert-manager.io/docs/installation/, e.g. kubectl apply -f https://github.com/cert-manager/cert-manager/releases/latest/download/cert-manager.yaml), or deploy with --without-cert-manager.',
    );
  }
}

/**
 * Deploys the operator to the current cluster.
 *
 * @param {{ root?: string, image?: string, withoutCertManager?: boolean }} [options]
 */
export async function deploy(options = {}) {
  const root = options.root ?? operatorRoot;
  setManagerImage(options.image ?? imageFromEnvironment(), root);
  if (!options.withoutCertManager) {
    await requireCertManager();
    await kubectl(['apply', '-k', 'config/default'], { cwd: root });
    return;
  }
  const objects = await kustomize('config/default-no-certmanager', root);
  const namespace = objects.find((object) => object.kind === 'Namespace');
  if (namespace === undefined)
    throw new ScriptError('config/default-no-certmanager renders no Namespace');
  // The Namespace first: the Secret goes into it, before anything that mounts or trusts it.
  await kubectl(['apply', '-f', '-'], { input: JSON.stringify(namespace), cwd: root });
  const { caCert, created } = await ensureClusterWebhookSecret({
    namespace: namespace.metadata.name,
  });
  console.log(
    `webhook certificate: ${created ? 'generated a new CA and certificate' : 'kept the existing Secret'}`,
  );
  await kubectl(['apply', '-f', '-'], {
    input: toYamlStream(withCaBundle(objects, caCert)),
    cwd: root,
  });
}

/**
 * Removes the operator from the current cluster (its CRDs, and so every Application, too);
 * objects already gone are fine.
 *
 * @param {{ root?: string, withoutCertManager?: boolean }} [options]
 */
export async function undeploy(options = {}) {
  const root = options.root ?? operatorRoot;
  const overlay = options.withoutCertManager ? 'config/default-no-certmanager' : 'config/default';
  await kubectl(['delete', '--ignore-not-found=true', '-k', overlay], { cwd: root });
}

runIfMain(import.meta.url, async () => {
  const [verb, ...rest] = process.argv.slice(2).filter((arg) => arg !== '--');
  const { set: withoutCertManager, rest: unknown } = takeFlag(rest, 'without-cert-manager');
  if (unknown.length > 0) throw new ScriptError(`unknown argument(s): ${unknown.join(' ')}`);
  if (verb === 'deploy') await deploy({ withoutCertManager });
  else if (verb === 'undeploy') await undeploy({ withoutCertManager });
  else
    throw new ScriptError(
      'usage: node scripts/deploy.mjs deploy|undeploy [--without-cert-manager]',
    );
  return 0;
});
