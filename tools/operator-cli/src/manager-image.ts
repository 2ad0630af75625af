import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import YAML from 'yaml';
import { parseImage } from './image-reference.js';

/**
 * Points config/manager/kustomization.yaml of the operator at `root` to `image` (the
 * `controller` entry of `images`), keeping its comments and other entries: what kubebuilder's
 * `kustomize edit set image controller=${IMG}` does. Writes only when something changes and
 * returns whether it did.
 *
 * @throws {OperatorCliError} for an invalid image (see `parseImage`); the file system's
 * error when the file cannot be read or written.
 */
export function setManagerImage(image: string, root: string): boolean {
  const path = join(root, 'config', 'manager', 'kustomization.yaml');
  const text = readFileSync(path, 'utf8');
  const document = YAML.parseDocument(text);
  const current = document.toJS() as { images?: Record<string, unknown>[] } | null;
  const others = (current?.images ?? []).filter((entry) => entry.name !== 'controller');
  document.set('images', [{ name: 'controller', ...parseImage(image) }, ...others]);
  const updated = document.toString();
  if (updated === text) return false;
  writeFileSync(path, updated);
  return true;
}
