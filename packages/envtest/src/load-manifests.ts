import { readdir, readFile, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { isJsonObject, type KubernetesObject } from '@ops/api';
import YAML from 'yaml';

/**
 * Reads every Kubernetes object from YAML (multi-document) and JSON files: `paths` may name
 * files or directories (read non-recursively, `.yaml`, `.yml`, `.json`, in name order).
 *
 * @throws {Error} naming the file for a path that does not exist (unless `ignoreMissing`) or
 *   a document that does not parse or is not an object with apiVersion and kind.
 */
export async function loadManifests(
  paths: readonly string[],
  options: { ignoreMissing?: boolean } = {},
): Promise<KubernetesObject[]> {
  const objects: KubernetesObject[] = [];
  for (const path of paths) {
    let info: Awaited<ReturnType<typeof stat>>;
    try {
      info = await stat(path);
    } catch {
      if (options.ignoreMissing) continue;
      throw new Error(
        `manifest path ${path} does not exist; fix the path, or pass errorIfCrdPathMissing: false`,
      );
    }
    const files = info.isDirectory()
      ? (await readdir(path))
          .filter((name) => ['.yaml', '.yml', '.json'].includes(extname(name)))
          .sort()
          .map((name) => join(path, name))
      : [path];
    for (const file of files) objects.push(...parseManifests(await readFile(file, 'utf8'), file));
  }
  return objects;
}

/** Parses the objects of one YAML or JSON text (a `List` is flattened). */
export function parseManifests(text: string, source = 'input'): KubernetesObject[] {
  const objects: KubernetesObject[] = [];
  const documents = YAML.parseAllDocuments(text);
  documents.forEach((document, index) => {
    if (document.errors.length > 0) {
      throw new Error(
        `${source}: document ${index + 1} is not valid YAML: ${document.errors[0]?.message ?? ''}`,
      );
    }
    const value: unknown = document.toJS();
    if (value === null || value === undefined) return;
    if (!isJsonObject(value)) {
      throw new Error(`${source}: document ${index + 1} is not an object`);
    }
    const object = value as KubernetesObject;
    if (object.kind?.endsWith('List') && Array.isArray(object.items)) {
      objects.push(...(object.items as KubernetesObject[]));
      return;
    }
    if (!object.apiVersion || !object.kind) {
      throw new Error(`${source}: document ${index + 1} has no apiVersion or kind`);
    }
    objects.push(object);
  });
  return objects;
}
