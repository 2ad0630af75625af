import type { KubernetesObject } from '@ops/api';
import { describe, expect, it } from 'vitest';
import { StatusError } from '../../api/status-error.js';
import type { ResourceType } from '../../registry/resource-type.js';
import { validateObject } from './write-rules.js';

const gadgets: ResourceType = {
  group: 'example.com',
  version: 'v1',
  kind: 'Gadget',
  plural: 'gadgets',
  singular: 'gadget',
  listKind: 'GadgetList',
  namespaced: true,
  shortNames: [],
  categories: [],
  verbs: [],
  subresources: { status: true, scale: false },
  selectableFields: [],
  printerColumns: [],
  custom: true,
  storageVersion: 'v1',
  schema: {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: { a: { type: 'integer' }, b: { type: 'integer' } },
        'x-kubernetes-validations': [{ rule: 'self.a <= self.b', message: 'a must not exceed b' }],
      },
    },
  },
};

const gadget = (spec: Record<string, unknown>): KubernetesObject => ({
  apiVersion: 'example.com/v1',
  kind: 'Gadget',
  metadata: { name: 'g', namespace: 'default' },
  spec,
});

function invalid(run: () => void): StatusError {
  try {
    run();
  } catch (error) {
    if (StatusError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a 422');
}

describe('validateObject with CEL rules', () => {
  it("rejects a custom resource that breaks a rule with kube-apiserver's message", () => {
    const error = invalid(() => validateObject(gadgets, gadget({ a: 2, b: 1 }), undefined));
    expect(error.code).toBe(422);
    expect(error.message).toBe(
      'Gadget.example.com "g" is invalid: spec: Invalid value: a must not exceed b',
    );
  });

  it('accepts one that holds, and warns instead of failing for an unchanged value on update', () => {
    expect(() => validateObject(gadgets, gadget({ a: 1, b: 2 }), undefined)).not.toThrow();
    const warnings: string[] = [];
    const old = gadget({ a: 2, b: 1 });
    validateObject(
      gadgets,
      { ...gadget({ a: 2, b: 1 }), metadata: { ...old.metadata, labels: { x: 'y' } } },
      old,
      warnings,
    );
    expect(warnings).toEqual(['spec: Invalid value: a must not exceed b']);
  });

  it('runs no rule after a type error, as kube-apiserver does', () => {
    const error = invalid(() => validateObject(gadgets, gadget({ a: 'x', b: 1 }), undefined));
    expect(error.message).toBe(
      'Gadget.example.com "g" is invalid: [spec.a: Invalid value: "string": spec.a in body must be of type integer: "string", <nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation]',
    );
  });
});
