import type { KubernetesObject } from '@ops/api';
import { type Json, objectOr } from '../json/json.js';
import { controllerReference, specOf } from './object-fields.js';

/**
 * A new Pod for a controller (ReplicaSet, Job) from its `spec.template`: generateName
 * `<owner>-`, the template's labels, annotations and finalizers, its spec, and a controller
 * reference to `owner` with `blockOwnerDeletion`. Copies: the owner is not touched.
 */
export function podFromTemplate(owner: KubernetesObject): KubernetesObject {
  const template = objectOr(specOf(owner).template);
  const templateMeta = objectOr(template.metadata);
  const metadata: Json = {
    generateName: `${owner.metadata?.name ?? ''}-`,
    namespace: owner.metadata?.namespace,
    ownerReferences: [controllerReference(owner)],
  };
  for (const field of ['labels', 'annotations', 'finalizers']) {
    if (templateMeta[field] !== undefined) metadata[field] = structuredClone(templateMeta[field]);
  }
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata,
    spec: structuredClone(objectOr(template.spec)),
  };
}
