// `pnpm run build-installer`: writes dist/install.yaml, every object of config/default in
// one file (`kubectl apply -f dist/install.yaml` installs the operator), with the image
// from IMG (default application-operator:latest), as kubebuilder's `make build-installer`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  imageFromEnvironment,
  kubectl,
  operatorRoot,
  runIfMain,
  setManagerImage,
} from './common.mjs';

/**
 * Sets the manager's image in config/manager (as `kustomize edit set image`), renders
 * `config/default` (or `overlay`) and writes it to `dist/install.yaml` (or `out`).
 * Resolves with the path written.
 *
 * @param {{ root?: string, image?: string, overlay?: string, out?: string }} [options]
 */
export async function buildInstaller(options = {}) {
  const root = options.root ?? operatorRoot;
  setManagerImage(options.image ?? imageFromEnvironment(), root);
  const rendered = await kubectl(['kustomize', options.overlay ?? 'config/default'], {
    cwd: root,
    capture: true,
  });
  const out = options.out ?? join(root, 'dist', 'install.yaml');
  mkdirSync(join(out, '..'), { recursive: true });
  writeFileSync(out, rendered);
  return out;
}

runIfMain(import.meta.url, async () => {
  const out = await buildInstaller();
  console.log(
    `wrote ${out} (image ${imageFromEnvironment()}); install with: kubectl apply -f ${out}`,
  );
  return 0;
});
