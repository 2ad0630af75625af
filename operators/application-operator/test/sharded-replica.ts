// Shared by sharded.e2e.test.ts and sharded-by-namespace.e2e.test.ts: config/sharded's
// ServiceAccount installed, and one replica of the operator as its Deployment runs it, in this
// process.
import { type Client, type KubernetesObject, runOperator } from '@ops/core';
import type { Environment, ServiceAccountIdentity } from '@ops/envtest';
import { expect } from 'vitest';
import { applicationOperator } from '../src/operator.js';
import { type K8sObject, render } from './tooling-support.js';

/** The namespace config/sharded deploys to, where the ring's Leases go. */
export const shardedNamespace = 'application-operator-system';

/**
 * Renders config/sharded and installs what a replica runs as: its Namespace and ServiceAccount
 * as kustomize renders them, and the rendered RBAC through envtest's `serviceAccount` (the
 * Deployment runs in this process instead, {@link startShardedReplica}).
 */
export async function installShardedConfig(
  env: Environment,
  admin: Client,
): Promise<{ rendered: K8sObject[]; operator: ServiceAccountIdentity }> {
  const rendered = render('config/sharded');
  for (const object of rendered) {
    if (object.kind === 'Namespace' || object.kind === 'ServiceAccount')
      await admin.create(object as KubernetesObject);
  }
  const operator = await env.serviceAccount({
    namespace: shardedNamespace,
    name: 'application-operator-controller-manager',
    rbac: rendered as KubernetesObject[],
  });
  return { rendered, operator };
}

/** A replica started by {@link startShardedReplica}. */
export interface ShardedReplica {
  /** Asks it to stop (as SIGTERM would). */
  stop(): void;
  /** Its exit code, once it stopped. */
  exited: Promise<number>;
}

/**
 * Starts one replica with the arguments of the rendered Deployment in `rendered` (which must
 * pass `--sharding`) and `extraArgs`, as the ServiceAccount whose kubeconfig is
 * `kubeconfigPath`, its Leases in {@link shardedNamespace}, named `identity` through
 * `LEADER_ELECTION_IDENTITY` as the downward API sets it in the Pod; webhooks and health
 * probes off, metrics off too unless `metricsPort` is given (then served over plain HTTP on
 * 127.0.0.1 at that port).
 */
export function startShardedReplica(options: {
  rendered: K8sObject[];
  kubeconfigPath: string;
  identity: string;
  extraArgs?: string[];
  metricsPort?: number;
}): ShardedReplica {
  const deployment = options.rendered.find((object) => object.kind === 'Deployment');
  const container = deployment?.spec.template.spec.containers[0];
  const args: string[] = container?.args ?? [];
  expect(args).toContain('--sharding');
  expect(container?.env?.[0]?.name).toBe('LEADER_ELECTION_IDENTITY');
  const stop = new AbortController();
  const exited = runOperator(applicationOperator, {
    argv: [
      ...args.filter((arg) => !arg.includes('bind-address')),
      ...(options.extraArgs ?? []),
      ...(options.metricsPort === undefined
        ? ['--metrics-bind-address=0']
        : [`--metrics-bind-address=127.0.0.1:${options.metricsPort}`, '--metrics-secure=false']),
      '--health-probe-bind-address=0',
      `--kubeconfig=${options.kubeconfigPath}`,
      `--leader-election-namespace=${shardedNamespace}`,
      '--disable-webhooks',
    ],
    env: { LEADER_ELECTION_IDENTITY: options.identity },
    stdout: () => undefined,
    stderr: () => undefined,
    signal: stop.signal,
    podNamespace: () => shardedNamespace,
  });
  return { stop: () => stop.abort(), exited };
}
