// core/v1 Namespaces: the `kubernetes` finalizer, the Active phase and the name label.
import { isJsonObject } from '@ops/api';
import type { Json, Strategy } from './strategy.js';

export const namespaceStrategy: Strategy = {
  keepStatusOnCreate: true,
  prepareForCreate(object) {
    const spec: Json = isJsonObject<Json>(object.spec) ? object.spec : {};
    spec.finalizers ??= ['kubernetes'];
    object.spec = spec;
    object.status = { phase: 'Active' };
    object.metadata ??= {};
    object.metadata.labels = {
      ...object.metadata.labels,
      'kubernetes.io/metadata.name': object.metadata.name ?? '',
    };
  },
  prepareForUpdate(object, old) {
    object.metadata ??= {};
    object.metadata.labels = {
      ...object.metadata.labels,
      'kubernetes.io/metadata.name': old.metadata?.name ?? '',
    };
    object.spec = old.spec;
  },
};
