import { describe, expect, it } from 'vitest';
import { builtInKindResources } from '../client/built-in-kinds.js';
import { PolicyRuleError } from '../errors/policy-rule-error.js';
import type { ControllerKinds } from './owner-reference-permissions.js';
import { shardingPermissions } from './sharding-permissions.js';

const application = {
  group: 'core.crd.lixueduan.com',
  kind: 'Application',
  plural: 'applications',
};
const resources = [application, ...builtInKindResources];

const sharded: ControllerKinds = {
  name: 'application',
  for: { apiVersion: 'core.crd.lixueduan.com/v1', kind: 'Application' },
  owns: [
    { kind: { apiVersion: 'apps/v1', kind: 'Deployment' }, onlyController: true },
    { kind: { apiVersion: 'v1', kind: 'ConfigMap' }, onlyController: false },
  ],
  sharding: { ring: 'application' },
};

describe('shardingPermissions', () => {
  it('grants patch on the for() and owned kinds cluster-wide, and the ring Leases namespaced', () => {
    expect(shardingPermissions([sharded], resources)).toEqual({
      clusterRules: [
        { apiGroups: ['core.crd.lixueduan.com'], resources: ['applications'], verbs: ['patch'] },
        { apiGroups: ['apps'], resources: ['deployments'], verbs: ['patch'] },
        { apiGroups: [''], resources: ['configmaps'], verbs: ['patch'] },
      ],
      leaseRules: [
        {
          apiGroups: ['coordination.k8s.io'],
          resources: ['leases'],
          verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
        },
      ],
    });
  });

  it('adds nothing for controllers that are not sharded', () => {
    const { sharding: _ring, ...unsharded } = sharded;
    expect(shardingPermissions([unsharded], resources)).toEqual({
      clusterRules: [],
      leaseRules: [],
    });
  });

  it('refuses a kind whose plural it cannot know, naming the controller and how to fix it', () => {
    const unknown: ControllerKinds = {
      ...sharded,
      owns: [{ kind: { apiVersion: 'example.com/v1', kind: 'Gadget' }, onlyController: true }],
    };
    let caught: unknown;
    try {
      shardingPermissions([unknown], resources);
    } catch (error) {
      caught = error;
    }
    expect(PolicyRuleError.isInstance(caught)).toBe(true);
    expect((caught as Error).message).toBe(
      "controller application is sharded (ring application), so its replicas need patch on Gadget (example.com/v1), but its plural is unknown: Gadget is not among the resources given (the custom resources and @ops/core's built-in kinds); list its definition (defineCustomResource) in customResources",
    );
  });
});
