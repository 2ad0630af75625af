import type { KubernetesObject } from '@ops/core';
import type { Balancer, BalancerBackend } from '../api/v1alpha1/balancer.js';
import { backendNameLabel, backendServiceName, balancerNameLabel } from './balancer-names.js';

/** The fields of a Service the operator sets. */
export type Service = KubernetesObject & {
  spec?: {
    selector?: Record<string, string>;
    ports?: Array<{ name?: string; protocol?: string; port: number; targetPort?: number | string }>;
    [field: string]: unknown;
  };
};

/**
 * The Service of one backend, as the operator wants it: `<balancer>-<backend>-backend`, labelled
 * with its Balancer and backend, selecting `spec.selector` plus the backend's own selector (the
 * backend's wins on a shared key), with every Balancer port from `port` to `targetPort`. No
 * owner reference: the reconciler sets it.
 */
export function backendService(balancer: Balancer, backend: BalancerBackend): Service {
  const name = balancer.metadata.name ?? '';
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: {
      name: backendServiceName(name, backend.name),
      namespace: balancer.metadata.namespace ?? '',
      labels: { [balancerNameLabel]: name, [backendNameLabel]: backend.name },
    },
    spec: {
      selector: { ...balancer.spec.selector, ...backend.selector },
      ports: balancer.spec.ports.map(({ name: portName, protocol, port, targetPort }) => ({
        name: portName,
        protocol,
        port,
        targetPort,
      })),
    },
  };
}
