import { describe, expect, it } from 'vitest';
import { managerPodOf, operatorNamespaceOf } from './pod-security.js';

describe('operatorNamespaceOf', () => {
  it('enforces "restricted" on a namespace the install does not describe', () => {
    expect(operatorNamespaceOf([], 'shop-system')).toEqual({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: {
        name: 'shop-system',
        labels: { 'pod-security.kubernetes.io/enforce': 'restricted' },
      },
    });
  });

  it("keeps the rendered Namespace's labels and annotations without changing it", () => {
    const rendered = {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: {
        name: 'shop-system',
        labels: { 'control-plane': 'controller-manager' },
        annotations: { owner: 'shop' },
      },
    };
    const other = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'elsewhere' } };
    expect(operatorNamespaceOf([other, rendered], 'shop-system').metadata).toEqual({
      name: 'shop-system',
      labels: {
        'control-plane': 'controller-manager',
        'pod-security.kubernetes.io/enforce': 'restricted',
      },
      annotations: { owner: 'shop' },
    });
    expect(rendered.metadata.labels).toEqual({ 'control-plane': 'controller-manager' });
  });
});

describe('managerPodOf', () => {
  it('refuses a Deployment without a Pod template, naming it and what to pass', () => {
    expect(() =>
      managerPodOf({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'manager', namespace: 'shop-system' },
      }),
    ).toThrow(
      "Deployment shop-system/manager has no spec.template.spec: render the operator's config/default (kubectl kustomize) and pass its manager Deployment",
    );
  });
});
