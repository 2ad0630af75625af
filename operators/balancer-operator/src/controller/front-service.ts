import type { Service } from '@ops/core';
import type { Balancer } from '../api/v1alpha1/balancer.js';
import { resolvedPorts } from '../api/v1alpha1/balancer-defaults.js';
import { balancerNameLabel, frontServiceName } from './balancer-names.js';

/**
 * The front Service of a Balancer, as the operator wants it: a ClusterIP Service named after the
 * Balancer, selecting its proxy Pods (`balancer.exposer.hliangzhao.io/balancer-name: <name>`),
 * with each Balancer port (its name and protocol defaulted as `resolvePort` does) forwarded to
 * the same port of nginx. No owner reference: the
 * reconciler sets it.
 */
export function frontService(balancer: Balancer): Service {
  const name = balancer.metadata.name ?? '';
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: {
      name: frontServiceName(name),
      namespace: balancer.metadata.namespace ?? '',
      labels: { [balancerNameLabel]: name },
    },
    spec: {
      type: 'ClusterIP',
      selector: { [balancerNameLabel]: name },
      ports: resolvedPorts(balancer).map(({ name: portName, protocol, port }) => ({
        name: portName,
        protocol,
        port,
        targetPort: port,
      })),
    },
  };
}
