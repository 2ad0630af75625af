import { describe, expect, it } from 'vitest';
import { builtinStrategicSchemas, strategicSchemaFor } from './builtin-schemas.js';
import type { StrategicSchema } from './strategic-schema.js';

/** The field at a dotted path, following nested and list-item schemas. */
function fieldAt(schema: StrategicSchema | undefined, path: string) {
  let current = schema;
  let field: StrategicSchema['fields'][string] | undefined;
  for (const name of path.split('.')) {
    field = current?.fields[name];
    current = field?.schema;
  }
  return field;
}

describe('strategicSchemaFor', () => {
  it('finds built-in kinds by apiVersion and kind', () => {
    expect(strategicSchemaFor('v1', 'Pod')).toBe(builtinStrategicSchemas.get('v1/Pod'));
    expect(strategicSchemaFor('apps/v1', 'Deployment')).toBeDefined();
    expect(strategicSchemaFor('rbac.authorization.k8s.io/v1', 'ClusterRole')).toBeDefined();
  });

  it('has none for custom resources or unknown versions', () => {
    expect(strategicSchemaFor('example.com/v1', 'Widget')).toBeUndefined();
    expect(strategicSchemaFor('apps/v1beta1', 'Deployment')).toBeUndefined();
    expect(strategicSchemaFor('v1', 'pod')).toBeUndefined();
  });

  it.each([
    ['v1/Pod', 'spec.containers', 'merge', 'name'],
    ['v1/Pod', 'spec.initContainers', 'merge', 'name'],
    ['v1/Pod', 'spec.ephemeralContainers', 'merge', 'name'],
    ['v1/Pod', 'spec.containers.ports', 'merge', 'containerPort'],
    ['v1/Pod', 'spec.containers.env', 'merge', 'name'],
    ['v1/Pod', 'spec.containers.volumeMounts', 'merge', 'mountPath'],
    ['v1/Pod', 'spec.containers.volumeDevices', 'merge', 'devicePath'],
    ['v1/Pod', 'spec.volumes', 'merge,retainKeys', 'name'],
    ['v1/Pod', 'spec.imagePullSecrets', 'merge', 'name'],
    ['v1/Pod', 'spec.hostAliases', 'merge', 'ip'],
    ['v1/Pod', 'status.conditions', 'merge', 'type'],
    ['v1/Pod', 'metadata.ownerReferences', 'merge', 'uid'],
    ['v1/Pod', 'metadata.finalizers', 'merge', undefined],
    ['apps/v1/Deployment', 'spec.template.spec.containers', 'merge', 'name'],
    ['apps/v1/StatefulSet', 'spec.template.spec.volumes', 'merge,retainKeys', 'name'],
    ['apps/v1/DaemonSet', 'spec.template.metadata.finalizers', 'merge', undefined],
    ['apps/v1/ReplicaSet', 'status.conditions', 'merge', 'type'],
    ['batch/v1/Job', 'spec.template.spec.containers.env', 'merge', 'name'],
    ['batch/v1/CronJob', 'spec.jobTemplate.spec.template.spec.containers', 'merge', 'name'],
    ['v1/Service', 'spec.ports', 'merge', 'port'],
    ['v1/Node', 'status.addresses', 'merge', 'type'],
    ['v1/Node', 'status.conditions', 'merge', 'type'],
    ['v1/ServiceAccount', 'secrets', 'merge', 'name'],
    ['admissionregistration.k8s.io/v1/MutatingWebhookConfiguration', 'webhooks', 'merge', 'name'],
  ])('%s %s has patchStrategy %s and patchMergeKey %s', (key, path, strategy, mergeKey) => {
    const field = fieldAt(builtinStrategicSchemas.get(key), path);
    expect(field?.patchStrategy).toBe(strategy);
    expect(field?.patchMergeKey).toBe(mergeKey);
  });

  it.each([
    ['v1/Pod', 'spec.tolerations'],
    ['v1/Pod', 'spec.readinessGates'],
    ['v1/Pod', 'spec.containers.envFrom'],
    ['v1/Node', 'spec.taints'],
    ['v1/ServiceAccount', 'imagePullSecrets'],
    ['v1/Endpoints', 'subsets'],
    ['rbac.authorization.k8s.io/v1/Role', 'rules'],
    ['rbac.authorization.k8s.io/v1/ClusterRoleBinding', 'subjects'],
  ])('%s %s has no tag, so it is replaced', (key, path) => {
    expect(builtinStrategicSchemas.has(key)).toBe(true);
    expect(fieldAt(builtinStrategicSchemas.get(key), path)?.patchStrategy).toBeUndefined();
  });

  it('gives every kind the ObjectMeta tags', () => {
    for (const [key, schema] of builtinStrategicSchemas) {
      expect(fieldAt(schema, 'metadata.ownerReferences')?.patchMergeKey, key).toBe('uid');
    }
  });
});
