/**
 * The operator's image: IMG (as kubebuilder's Makefile), split into kustomize's `images`
 * fields.
 */
import { OperatorCliError } from './errors/operator-cli-error.js';

/** An image reference in kustomize's `images` fields. */
export interface KustomizeImage {
  newName: string;
  newTag?: string;
  digest?: string;
}

/** The image to use: `env.IMG`, else `defaultImage` (the operator's `<name>:latest`). */
export function imageFromEnvironment(
  defaultImage: string,
  env: NodeJS.ProcessEnv = process.env,
): string {
  return env.IMG || defaultImage;
}

/**
 * Splits an image reference as `kustomize edit set image controller=<image>` does:
 * `registry:5000/name:tag` -> newName + newTag, `name@sha256:...` -> newName + digest, a
 * reference without tag -> newName alone.
 *
 * @throws {OperatorCliError} for an empty reference or one with white space.
 */
export function parseImage(image: string): KustomizeImage {
  if (image === '' || /\s/.test(image)) {
    throw new OperatorCliError(
      `IMG must be an image reference such as ghcr.io/you/my-operator:0.1.0, got "${image}"`,
    );
  }
  const at = image.indexOf('@');
  if (at >= 0) return { newName: image.slice(0, at), digest: image.slice(at + 1) };
  const colon = image.lastIndexOf(':');
  if (colon > image.lastIndexOf('/')) {
    return { newName: image.slice(0, colon), newTag: image.slice(colon + 1) };
  }
  return { newName: image };
}
