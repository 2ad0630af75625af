/**
 * PATCH as kube-apiserver applies it: JSON patch, JSON merge patch and strategic merge patch,
 * the strategic merge metadata of the built-in kinds, and the mapping from `Content-Type` to
 * patch type. Pure functions over JSON values; failures are `StatusError`s worded as
 * kube-apiserver words them.
 */
export {
  builtinStrategicSchemas,
  containerSchema,
  objectMetaSchema,
  podSpecSchema,
  podStatusSchema,
  podTemplateSpecSchema,
  strategicSchemaFor,
} from './builtin-schemas.js';
export { applyJsonPatch, maxJsonPatchOperations } from './json-patch.js';
export type { JsonObject, JsonValue } from './json-value.js';
export { applyMergePatch } from './merge-patch.js';
export {
  type PatchTarget,
  type PatchType,
  patchContentTypes,
  patchTypeFromContentType,
  unsupportedStrategicMergePatch,
} from './patch-type.js';
export { applyStrategicMergePatch } from './strategic-merge-patch.js';
export type { PatchStrategy, StrategicField, StrategicSchema } from './strategic-schema.js';
