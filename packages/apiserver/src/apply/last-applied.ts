import { isJsonObject } from '@ops/api';
/**
 * kubectl's move from client-side to server-side apply, as kube-apiserver eases it
 * (staging apimachinery managedfields/internal/lastappliedmanager.go and
 * lastappliedupdater.go), for the manager `kubectl` only:
 *
 * - a server-side apply may take, without `--force-conflicts`, the fields whose live value is
 *   still what the `kubectl.kubernetes.io/last-applied-configuration` annotation says
 *   ({@link conflictsAllowedByLastApplied});
 * - an object that carries the annotation gets it rewritten to the configuration just applied
 *   ({@link withLastApplied}), so a later client-side apply starts from it.
 */
import { stableStringify } from '../server/object-metadata.js';
import { compareValues } from './compare-values.js';
import type { FieldSet } from './field-set.js';
import type { FieldType } from './field-type.js';
import { toFieldSet } from './to-field-set.js';

/** The annotation client-side apply keeps its last configuration in. */
export const lastAppliedAnnotation = 'kubectl.kubernetes.io/last-applied-configuration';

/** The manager whose applies kube-apiserver reconciles with client-side apply. */
export const kubectlManager = 'kubectl';

function annotationOf(object: Record<string, unknown>): string | undefined {
  const metadata = isJsonObject(object.metadata) ? object.metadata : {};
  const annotations = isJsonObject(metadata.annotations) ? metadata.annotations : {};
  const value = annotations[lastAppliedAnnotation];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * The fields of `live`'s last client-side applied configuration whose value `live` still
 * has; undefined when it has no (readable) annotation.
 */
export function conflictsAllowedByLastApplied(
  live: Record<string, unknown>,
  type: FieldType,
): FieldSet | undefined {
  const text = annotationOf(live);
  if (text === undefined) return undefined;
  try {
    const lastApplied: unknown = JSON.parse(text);
    return toFieldSet(lastApplied, type).difference(
      compareValues(lastApplied, live, type).modified,
    );
  } catch {
    return undefined;
  }
}

/**
 * `object` with its last-applied annotation (when it has one) set to `config` without that
 * annotation, encoded as kube-apiserver encodes it (keys sorted, a final newline).
 */
export function withLastApplied(
  object: Record<string, unknown>,
  config: Record<string, unknown>,
): Record<string, unknown> {
  if (annotationOf(object) === undefined) return object;
  const applied = structuredClone(config);
  if (isJsonObject(applied.metadata) && isJsonObject(applied.metadata.annotations)) {
    delete applied.metadata.annotations[lastAppliedAnnotation];
  }
  const metadata = isJsonObject(object.metadata) ? object.metadata : {};
  const annotations = isJsonObject(metadata.annotations) ? metadata.annotations : {};
  return {
    ...object,
    metadata: {
      ...metadata,
      annotations: { ...annotations, [lastAppliedAnnotation]: `${stableStringify(applied)}\n` },
    },
  };
}
