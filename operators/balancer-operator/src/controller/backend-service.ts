import type { Service } from '@ops/core';
import type { Balancer, BalancerBackend } from '../api/v1alpha1/balancer.js';
import { backendSelector, resolvedPorts } from '../api/v1alpha1/balancer-defaults.js';
import { backendNameLabel, backendServiceName, balancerNameLabel } from './balancer-names.js';

/**
 * The Service of one backend, as the operator wants it: `<balancer>-<backend>-backend`, labelled
 * with its Balancer and backend, selecting `spec.selector` plus the backend's own selector (the
 * backend's wins on a shared key; spec.selector alone for a backend without one; no selector
 * at all when both are missing, a Service whose endpoints are the user's), with every
 * Balancer port from `port` to `targetPort`, the optional fields defaulted (`resolvePort`). No
 * owner reference: the reconciler sets it.
 */
export function backendService(balancer: Balancer, backend: BalancerBackend): Service {
  const name = balancer.metadata.name ?? '';
  const selector = backendSelector(balancer, backend);
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: {
      name: backendServiceName(name, backend.name),
      namespace: balancer.metadata.namespace ?? '',
      labels: { [balancerNameLabel]: name, [backendNameLabel]: backend.name },
    },
    spec: {
      ...(Object.keys(selector).length > 0 ? { selector } : {}),
      ports: resolvedPorts(balancer).map(({ name: portName, protocol, port, targetPort }) => ({
        name: portName,
        protocol,
        port,
        targetPort,
      })),
    },
  };
}
