import type { Balancer } from '../api/v1alpha1/balancer.js';

/**
 * Test support (not shipped: no entry imports it): OPERATORS.md's sample Balancer
 * `balancer-sample` in `default` (uid `balancer-uid`, generation 1), with `spec` fields
 * replaced by `spec` when given.
 */
export function testBalancer(spec: Partial<Balancer['spec']> = {}): Balancer {
  return {
    apiVersion: 'exposer.hliangzhao.io/v1alpha1',
    kind: 'Balancer',
    metadata: { name: 'balancer-sample', namespace: 'default', uid: 'balancer-uid', generation: 1 },
    spec: {
      ports: [{ name: 'http', protocol: 'TCP', port: 80, targetPort: 5678 }],
      selector: { app: 'test' },
      backends: [
        { name: 'v1', weight: 40, selector: { version: 'v1' } },
        { name: 'v2', weight: 20, selector: { version: 'v2' } },
        { name: 'v3', weight: 40, selector: { version: 'v3' } },
      ],
      ...spec,
    },
  };
}
