// core/v1 Services: defaults (a cluster IP among them) and port validation.
import { isJsonObject } from '@ops/api';
import type { FieldError } from '../../api/field-error.js';
import type { Json, Obj, Strategy, StrategyContext } from './strategy.js';

function defaultService(
  object: Obj,
  context: StrategyContext | undefined,
  old: Obj | undefined,
): void {
  const spec: Json = isJsonObject<Json>(object.spec) ? object.spec : {};
  object.spec = spec;
  spec.type ??= 'ClusterIP';
  spec.sessionAffinity ??= 'None';
  if (Array.isArray(spec.ports)) {
    for (const port of spec.ports) {
      if (!isJsonObject<Json>(port)) continue;
      port.protocol ??= 'TCP';
      port.targetPort ??= port.port;
    }
  }
  if (spec.type !== 'ExternalName') {
    const previous =
      old !== undefined && isJsonObject<Json>(old.spec) ? old.spec.clusterIP : undefined;
    if (previous !== undefined) {
      spec.clusterIP ??= previous;
    } else if (spec.clusterIP === undefined || spec.clusterIP === '') {
      spec.clusterIP = context?.allocateClusterIP() ?? '';
    }
    spec.clusterIPs ??= [spec.clusterIP];
    spec.ipFamilies ??= ['IPv4'];
    spec.ipFamilyPolicy ??= 'SingleStack';
    spec.internalTrafficPolicy ??= 'Cluster';
  }
}

export const serviceStrategy: Strategy = {
  prepareForCreate(object, context) {
    defaultService(object, context, undefined);
    object.status = { loadBalancer: {} };
  },
  prepareForUpdate(object, old) {
    defaultService(object, undefined, old);
  },
  validate(object, old) {
    const spec = object.spec;
    const errors: FieldError[] = [];
    if (!isJsonObject<Json>(spec)) return [{ type: 'FieldValueRequired', field: 'spec' }];
    if (
      spec.type !== 'ExternalName' &&
      spec.clusterIP !== 'None' &&
      (!Array.isArray(spec.ports) || spec.ports.length === 0)
    ) {
      errors.push({ type: 'FieldValueRequired', field: 'spec.ports' });
    }
    if (Array.isArray(spec.ports)) {
      spec.ports.forEach((port: unknown, index: number) => {
        if (!isJsonObject<Json>(port)) return;
        if (typeof port.port !== 'number' || port.port < 1 || port.port > 65535) {
          errors.push({
            type: 'FieldValueInvalid',
            field: `spec.ports[${index}].port`,
            value: port.port ?? 0,
            detail: 'must be between 1 and 65535, inclusive',
          });
        }
        if (!['TCP', 'UDP', 'SCTP'].includes(port.protocol)) {
          errors.push({
            type: 'FieldValueNotSupported',
            field: `spec.ports[${index}].protocol`,
            value: port.protocol,
            detail: 'supported values: "SCTP", "TCP", "UDP"',
          });
        }
        if (spec.ports.length > 1 && !port.name) {
          errors.push({ type: 'FieldValueRequired', field: `spec.ports[${index}].name` });
        }
      });
    }
    if (
      old !== undefined &&
      isJsonObject<Json>(old.spec) &&
      old.spec.clusterIP &&
      spec.clusterIP !== old.spec.clusterIP
    ) {
      errors.push({
        type: 'FieldValueInvalid',
        field: 'spec.clusterIPs[0]',
        value: spec.clusterIP,
        detail: 'may not change once set',
      });
    }
    return errors;
  },
};
