import type { Condition } from '@ops/api';
import { Type } from '@sinclair/typebox';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { defineCustomResource } from '../crd/custom-resource.js';
import { type ConditionObject, ConditionSchema, ConditionsSchema } from './condition-schema.js';

const widgets = defineCustomResource({
  group: 'example.com',
  kind: 'Widget',
  plural: 'widgets',
  scope: 'Namespaced',
  versions: [
    {
      name: 'v1',
      served: true,
      storage: true,
      spec: Type.Object({}),
      status: Type.Object({ conditions: Type.Optional(ConditionsSchema) }),
      subresources: { status: true },
    },
  ],
});

const widgetWith = (condition: unknown) => ({
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  metadata: { name: 'w' },
  spec: {},
  status: { conditions: [condition] },
});

describe('ConditionSchema', () => {
  it('has the static type of Condition', () => {
    expectTypeOf<ConditionObject>().toEqualTypeOf<Condition>();
  });

  it('accepts a metav1.Condition and rejects a bad status or reason', () => {
    const condition: Condition = {
      type: 'Ready',
      status: 'True',
      observedGeneration: 2,
      lastTransitionTime: '2026-01-01T00:00:00Z',
      reason: 'DeploymentAvailable',
      message: '',
    };
    expect(widgets.validate(widgetWith(condition))).toEqual([]);
    expect(widgets.validate(widgetWith({ ...condition, status: 'Yes' }))).not.toEqual([]);
    expect(widgets.validate(widgetWith({ ...condition, reason: 'not camel' }))).not.toEqual([]);
    expect(ConditionSchema.required).toEqual(
      expect.arrayContaining(['type', 'status', 'lastTransitionTime', 'reason', 'message']),
    );
  });

  it('renders into a CRD as a list keyed by type', () => {
    const schema = widgets.crd().spec.versions[0]?.schema?.openAPIV3Schema;
    const conditions = schema?.properties?.status?.properties?.conditions;
    expect(conditions).toMatchObject({
      type: 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['type'],
      items: {
        type: 'object',
        required: expect.arrayContaining([
          'type',
          'status',
          'lastTransitionTime',
          'reason',
          'message',
        ]),
      },
    });
    expect(conditions?.items?.properties?.status?.enum).toEqual(['True', 'False', 'Unknown']);
  });
});
