import { describe, expect, it } from 'vitest';
import { widgetConversion } from '../crd/test-widget.js';
import { certificateNamesOf } from './operator-definition.js';
import { selfManagedCertificateRbac } from './self-managed-certificate-rbac.js';

describe('certificateNamesOf', () => {
  it('names the CRDs of the conversions, and those listed, once each', () => {
    const definition = {
      name: 'widget-operator',
      conversions: [widgetConversion],
      selfManagedCertificates: {
        customResourceDefinitions: ['widgets.example.com', 'gadgets.example.com'],
      },
    };
    expect(certificateNamesOf(definition)).toEqual({
      secret: 'widget-operator-webhook-server-cert',
      service: 'widget-operator-webhook-service',
      customResourceDefinitions: ['widgets.example.com', 'gadgets.example.com'],
    });
    // ...so the generated RBAC lets the self-managed mode patch them.
    expect(selfManagedCertificateRbac(definition, 'widget-system').clusterRules).toEqual([
      {
        apiGroups: ['apiextensions.k8s.io'],
        resources: ['customresourcedefinitions'],
        resourceNames: ['widgets.example.com', 'gadgets.example.com'],
        verbs: ['get', 'patch', 'update'],
      },
    ]);
  });

  it('names no CRD without conversions', () => {
    expect(certificateNamesOf({ name: 'plain' })).not.toHaveProperty('customResourceDefinitions');
  });
});
