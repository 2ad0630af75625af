// core/v1 Secrets and ConfigMaps: `stringData` folded into `data`, key and size limits.
import { isJsonObject } from '@ops/api';
import { configMapKeyErrors, secretKeyErrors } from '../../limits/data-keys.js';
import { configMapSizeErrors, secretSizeErrors } from '../../limits/data-size.js';
import type { Json, Obj, Strategy } from './strategy.js';

export const secretStrategy: Strategy = {
  prepareForCreate: normalizeSecret,
  prepareForUpdate: normalizeSecret,
  validate: (object) => [...secretKeyErrors(object), ...secretSizeErrors(object)],
};

export const configMapStrategy: Strategy = {
  validate: (object) => [...configMapKeyErrors(object), ...configMapSizeErrors(object)],
};

function normalizeSecret(object: Obj): void {
  object.type ??= 'Opaque';
  if (isJsonObject<Json>(object.stringData)) {
    const data: Json = isJsonObject<Json>(object.data) ? object.data : {};
    for (const [key, value] of Object.entries(object.stringData)) {
      data[key] = Buffer.from(String(value)).toString('base64');
    }
    object.data = data;
    object.stringData = undefined;
    delete object.stringData;
  }
}
