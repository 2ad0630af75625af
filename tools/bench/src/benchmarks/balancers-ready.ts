import type { KubernetesObject } from '@ops/core';
import {
  type Balancer,
  balancerResource,
} from '../../../../operators/balancer-operator/src/api/v1alpha1/balancer.js';
import { addBalancerController } from '../../../../operators/balancer-operator/src/operator.js';
import type { BenchContext, BenchmarkModule, BenchmarkResult } from '../benchmark.js';
import { operatorAtScaleResult } from '../harness/operator-at-scale-result.js';
import { runBeforeAndAfter } from '../harness/operator-before-after.js';

const namespace = 'balancers';
const backends = 3;

/**
 * The balancer-operator at scale: N Balancers of 3 backends each (OPERATORS.md's sample, one
 * port) are created at once on a local API server whose simulated cluster runs the proxy
 * Deployments; measured is the time until every Balancer has all its children and a true
 * status (3 active backends, none obsolete, Ready for its generation), the operator's writes
 * to get there (3 backend Services, the ConfigMap, the proxy Deployment, the front Service,
 * status patches, Events), and its writes once everything is done and nothing changes (must be 0).
 */
export const balancersReadyBenchmark: BenchmarkModule = {
  id: 'balancers',
  title: 'Balancers ready',
  description:
    'balancer-operator: time until N Balancers of 3 backends (default 1,000) have every child and a true status on the simulated cluster, writes to get there, and writes at rest (must be 0).',
  unsupportedOn: {
    real: "needs a cluster that runs Deployments (the local server's simulated cluster); the real server is etcd + kube-apiserver without kube-controller-manager or nodes",
  },
  async run(context: BenchContext): Promise<BenchmarkResult> {
    const { options } = context;
    const count = options.steadyObjects;
    const runs = await runBeforeAndAfter(
      context,
      {
        namespace,
        crd: balancerResource.crd() as unknown as KubernetesObject,
        apiVersion: balancerResource.apiVersion,
        kind: balancerResource.kind,
        configure: (manager, controller) => addBalancerController(manager, { controller }),
        object: (index) => ({
          apiVersion: balancerResource.apiVersion,
          kind: 'Balancer',
          metadata: { name: `lb-${index}`, namespace },
          spec: {
            ports: [{ name: 'http', protocol: 'TCP', port: 80, targetPort: 5678 }],
            selector: { app: `app-${index}` },
            backends: Array.from({ length: backends }, (_, b) => ({
              name: `v${b + 1}`,
              weight: b === 1 ? 20 : 40,
              selector: { version: `v${b + 1}` },
            })),
          },
        }),
        done: (object) => {
          const balancer = object as Balancer;
          const ready = balancer.status?.conditions?.find((c) => c.type === 'Ready');
          return (
            balancer.status?.activeBackendsNum === backends &&
            balancer.status.obsoleteBackendsNum === 0 &&
            balancer.status.observedGeneration === balancer.metadata.generation &&
            ready?.status === 'True'
          );
        },
        description: `${count} Balancers to be ready`,
      },
      count,
    );
    return operatorAtScaleResult(
      this,
      count,
      runs,
      options.quietMs,
      { plural: 'Balancers', singular: 'Balancer', state: 'ready' },
      `${count} Balancers of ${backends} backends and one TCP port created in batches of 50 on a local API server with its simulated cluster, which runs each proxy Deployment's Pod. Ready = activeBackendsNum ${backends}, obsoleteBackendsNum 0, observedGeneration current and Ready=True (the proxy Deployment rolled out), read from the operator's cache. Writes are the operator's (children created, status patches, Events).`,
    );
  },
};
