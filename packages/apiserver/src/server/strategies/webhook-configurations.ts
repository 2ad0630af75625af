// admissionregistration.k8s.io/v1 Mutating- and ValidatingWebhookConfigurations.
import { isJsonObject } from '@ops/api';
import type { FieldError } from '../../api/field-error.js';
import type { Json, Obj, Strategy } from './strategy.js';

export const mutatingWebhookConfigurationStrategy: Strategy = {
  prepareForCreate: defaultWebhooks,
  prepareForUpdate: defaultWebhooks,
  validate: validateWebhooks,
};

export const validatingWebhookConfigurationStrategy: Strategy = {
  prepareForCreate: defaultWebhooks,
  prepareForUpdate: defaultWebhooks,
  validate: validateWebhooks,
};

function defaultWebhooks(object: Obj): void {
  if (!Array.isArray(object.webhooks)) return;
  const mutating = object.kind === 'MutatingWebhookConfiguration';
  for (const webhook of object.webhooks) {
    if (!isJsonObject<Json>(webhook)) continue;
    webhook.failurePolicy ??= 'Fail';
    webhook.matchPolicy ??= 'Equivalent';
    webhook.namespaceSelector ??= {};
    webhook.objectSelector ??= {};
    webhook.timeoutSeconds ??= 10;
    if (mutating) webhook.reinvocationPolicy ??= 'Never';
    if (Array.isArray(webhook.rules))
      for (const rule of webhook.rules) if (isJsonObject<Json>(rule)) rule.scope ??= '*';
    if (
      isJsonObject<Json>(webhook.clientConfig) &&
      isJsonObject<Json>(webhook.clientConfig.service)
    )
      webhook.clientConfig.service.port ??= 443;
  }
}

function validateWebhooks(object: Obj): FieldError[] {
  const errors: FieldError[] = [];
  const webhooks = Array.isArray(object.webhooks) ? object.webhooks : [];
  const names = new Set<string>();
  webhooks.forEach((webhook: unknown, index: number) => {
    const at = `webhooks[${index}]`;
    if (!isJsonObject<Json>(webhook)) return;
    if (typeof webhook.name !== 'string' || !webhook.name.includes('.')) {
      errors.push({
        type: 'FieldValueInvalid',
        field: `${at}.name`,
        value: webhook.name ?? '',
        detail: 'should be a domain with at least three segments separated by dots',
      });
    } else if (names.has(webhook.name)) {
      errors.push({ type: 'FieldValueDuplicate', field: `${at}.name`, value: webhook.name });
    } else {
      names.add(webhook.name);
    }
    if (!['None', 'NoneOnDryRun'].includes(webhook.sideEffects)) {
      errors.push({
        type: 'FieldValueNotSupported',
        field: `${at}.sideEffects`,
        value: webhook.sideEffects ?? '',
        detail: 'supported values: "None", "NoneOnDryRun"',
      });
    }
    if (
      !Array.isArray(webhook.admissionReviewVersions) ||
      webhook.admissionReviewVersions.length === 0
    ) {
      errors.push({
        type: 'FieldValueRequired',
        field: `${at}.admissionReviewVersions`,
        detail: 'must specify one of v1, v1beta1',
      });
    }
    const client = isJsonObject<Json>(webhook.clientConfig) ? webhook.clientConfig : {};
    if ((client.url === undefined) === (client.service === undefined)) {
      errors.push({
        type: 'FieldValueRequired',
        field: `${at}.clientConfig`,
        detail: 'exactly one of url or service is required',
      });
    }
  });
  return errors;
}
