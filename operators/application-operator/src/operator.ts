import { deployments, type Manager, type OperatorDefinition } from '@ops/core';
import type { BuilderOptions } from '@ops/core/controller';
import type { WebhookServer } from '@ops/core/webhook';
import { applicationResource } from './api/v1/application.js';
import { applicationReconciler } from './controller/application.js';
import { applicationDefaulter, applicationValidator } from './webhook/application.js';

/**
 * The controller options the application-operator adopts from issue #31 beyond the defaults
 * (the priority queue and read-your-writes it has without asking): a reconcile is a chain of
 * API calls (finalizer, Deployment, status, Event), each of which may hang up to the client's
 * 60 s timeout, so a reconcile still running after 30 s is aborted, counted
 * (`controller_runtime_reconcile_timeouts_total`) and retried with backoff, and its worker moves
 * on. A reconcile here takes milliseconds; 30 s leaves room for its reads waiting on
 * read-your-writes (5 s each at most). Metadata-only watches are not adopted: the reconciler
 * reads each Deployment's spec and status, so the one Deployment informer holds them whole.
 */
export const applicationControllerOptions: BuilderOptions = { reconciliationTimeoutMs: 30_000 };

/** Settings of {@link addApplicationController}. */
export interface ApplicationControllerSettings {
  /**
   * Controller options applied over {@link applicationControllerOptions} (the benchmarks turn
   * the operator's adopted features off with them, to measure the runtime without them).
   */
  controller?: BuilderOptions;
}

/**
 * Adds the Application controller to a manager: it reconciles Applications, owns their
 * Deployments, and watches Deployments named `app-<name>` that it does not own (to report
 * and then clear a name conflict). Its options are {@link applicationControllerOptions},
 * with `settings.controller` over them.
 */
export function addApplicationController(
  manager: Manager,
  settings: ApplicationControllerSettings = {},
): void {
  const recorder = manager.eventRecorder('application-operator');
  manager
    .controller('application')
    .for(applicationResource)
    .withOptions({ ...applicationControllerOptions, ...settings.controller })
    .owns(deployments)
    .watches(deployments, (deployment) => {
      const name = deployment.metadata.name ?? '';
      const owned = (deployment.metadata.ownerReferences ?? []).some(
        (ref) => ref.controller && ref.kind === applicationResource.kind,
      );
      return !owned && name.startsWith('app-')
        ? [{ namespace: deployment.metadata.namespace ?? '', name: name.slice(4) }]
        : [];
    })
    .complete(applicationReconciler({ client: manager.client, recorder }));
}

/** The Application webhooks (defaulting and validating): served by main, rendered by manifests. */
export const applicationWebhooks = [applicationDefaulter, applicationValidator];

/** Registers the Application webhooks on a webhook server (as `runOperator` does). */
export function registerApplicationWebhooks(server: WebhookServer): void {
  for (const webhook of applicationWebhooks) server.register(webhook);
}

/**
 * The ring the Application controller shards in under `--sharding`: its Leases are
 * `application-<pod>` and `application-sharder`, its label `shard.sharding.ops.dev/application`.
 */
export const applicationShardingRing = 'application';

/**
 * The application-operator for `runOperator` (src/main.ts): its name (which is also the
 * kustomize namePrefix its self-managed certificate mode expects), its Lease, its webhooks
 * and its controller, sharded across all replicas in the ring
 * {@link applicationShardingRing} when run with `--sharding` (`SHARDING=true`; the overlay
 * config/sharded). src/manifests.ts renders the webhook configurations and the self-managed
 * certificate RBAC from the same object.
 */
export const applicationOperator: OperatorDefinition = {
  name: 'application-operator',
  leaderElectionId: 'application-operator.lixueduan.com',
  webhooks: applicationWebhooks,
  setup: (manager, { flags }) =>
    addApplicationController(
      manager,
      flags.sharding
        ? { controller: { sharding: { ring: applicationShardingRing, by: flags.shardingBy } } }
        : {},
    ),
};
