import type { ConfigMap } from '@ops/core';
import type { Balancer } from '../api/v1alpha1/balancer.js';
import { balancerNameLabel, nginxConfKey, proxyConfigMapName } from './balancer-names.js';

/**
 * The ConfigMap `<balancer>proxy-config` holding `conf` as `nginx.conf`, labelled with its
 * Balancer. No owner reference: the reconciler sets it.
 */
export function proxyConfigMap(balancer: Balancer, conf: string): ConfigMap {
  const name = balancer.metadata.name ?? '';
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: proxyConfigMapName(name),
      namespace: balancer.metadata.namespace ?? '',
      labels: { [balancerNameLabel]: name },
    },
    data: { [nginxConfKey]: conf },
  };
}
