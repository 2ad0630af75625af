// Pod spec defaults and validation, shared by Pods and every kind with a Pod template.
import { isJsonObject } from '@ops/api';
import type { FieldError } from '../../api/field-error.js';
import type { Json } from './strategy.js';

export function defaultPodSpec(spec: Json): void {
  spec.restartPolicy ??= 'Always';
  spec.terminationGracePeriodSeconds ??= 30;
  spec.dnsPolicy ??= 'ClusterFirst';
  spec.schedulerName ??= 'default-scheduler';
  spec.securityContext ??= {};
  if (spec.serviceAccountName === undefined && spec.serviceAccount === undefined)
    spec.serviceAccountName = 'default';
  for (const list of ['initContainers', 'containers']) {
    const containers = spec[list];
    if (!Array.isArray(containers)) continue;
    for (const container of containers) {
      if (!isJsonObject<Json>(container)) continue;
      const image = typeof container.image === 'string' ? container.image : '';
      const tagged = /:[^/]+$/.test(image.split('@')[0] ?? '') && !image.endsWith(':latest');
      container.imagePullPolicy ??= image.includes('@') || tagged ? 'IfNotPresent' : 'Always';
      container.terminationMessagePath ??= '/dev/termination-log';
      container.terminationMessagePolicy ??= 'File';
      container.resources ??= {};
      if (Array.isArray(container.ports)) {
        for (const port of container.ports) if (isJsonObject<Json>(port)) port.protocol ??= 'TCP';
      }
    }
  }
}

export function validatePodSpec(spec: unknown, path: string): FieldError[] {
  if (!isJsonObject<Json>(spec)) return [{ type: 'FieldValueRequired', field: path }];
  const errors: FieldError[] = [];
  const containers = spec.containers;
  if (!Array.isArray(containers) || containers.length === 0) {
    errors.push({ type: 'FieldValueRequired', field: `${path}.containers` });
    return errors;
  }
  const names = new Set<string>();
  containers.forEach((container: unknown, index: number) => {
    const at = `${path}.containers[${index}]`;
    if (!isJsonObject<Json>(container)) {
      errors.push({
        type: 'FieldValueInvalid',
        field: at,
        value: container,
        detail: 'must be an object',
      });
      return;
    }
    if (typeof container.name !== 'string' || container.name === '') {
      errors.push({ type: 'FieldValueRequired', field: `${at}.name` });
    } else if (names.has(container.name)) {
      errors.push({ type: 'FieldValueDuplicate', field: `${at}.name`, value: container.name });
    } else {
      names.add(container.name);
    }
    if (typeof container.image !== 'string' || container.image.trim() === '') {
      errors.push({ type: 'FieldValueRequired', field: `${at}.image` });
    }
  });
  const policy = spec.restartPolicy;
  if (policy !== undefined && !['Always', 'OnFailure', 'Never'].includes(policy)) {
    errors.push({
      type: 'FieldValueNotSupported',
      field: `${path}.restartPolicy`,
      value: policy,
      detail: 'supported values: "Always", "OnFailure", "Never"',
    });
  }
  return errors;
}
