// The manifest module of an operator: its kinds and the permissions its controllers need.
import { defineCustomResource } from '@ops/core';
import { customResourcePermissions, permission, rbacRules } from '@ops/core/crd';
import { Type } from '@sinclair/typebox';

export const application = defineCustomResource({
  group: 'core.crd.lixueduan.com',
  kind: 'Application',
  plural: 'applications',
  scope: 'Namespaced',
  versions: [
    {
      name: 'v1',
      spec: Type.Object({
        enabled: Type.Optional(Type.Boolean({ default: true })),
        image: Type.String(),
      }),
      status: Type.Object({ ready: Type.Optional(Type.Boolean()) }),
      printerColumns: [
        { name: 'Image', type: 'string', jsonPath: '.spec.image' },
        { name: 'Ready', type: 'boolean', jsonPath: '.status.ready' },
        { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
      ],
    },
  ],
});

export const customResources = [application];

export const rbac = {
  roleName: 'manager-role',
  rules: rbacRules(
    customResourcePermissions(application),
    permission({
      group: 'apps',
      resources: 'deployments',
      verbs: ['get', 'list', 'watch', 'create', 'update'],
    }),
    permission({ group: '', resources: 'events', verbs: ['create', 'patch'] }),
  ),
};
