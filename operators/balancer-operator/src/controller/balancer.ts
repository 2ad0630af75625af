import {
  type ConfigMap,
  createOrUpdate,
  type Deployment,
  type EventRecorder,
  ignoreNotFound,
  isControlledBy,
  type KubernetesObject,
  type PolicyRule,
  type Reader,
  type ReconcileContext,
  type Request,
  type Result,
  type Service,
  type StatusWriter,
  services,
  setCondition,
  setControllerReference,
  type Writer,
} from '@ops/core';
import { type Balancer, balancerResource } from '../api/v1alpha1/balancer.js';
import { backendService } from './backend-service.js';
import { backendNameLabel, balancerNameLabel, balancerNameProblems } from './balancer-names.js';
import { frontService } from './front-service.js';
import { nginxConfig } from './nginx-config.js';
import { overlay } from './overlay.js';
import { proxyConfigMap } from './proxy-config-map.js';
import { proxyDeployment } from './proxy-deployment.js';

/**
 * The permissions this controller uses, declared next to it (what kubebuilder's rbac markers
 * do). `pnpm run manifests` turns them into config/rbac/role.yaml; the end-to-end test runs
 * the controller under exactly that role, so a missing rule fails it with the real 403.
 * Reads come from the informer cache (list + watch), so no `get`; `delete` on Services only
 * (obsolete backends; the rest goes with the Balancer through garbage collection).
 */
export const balancerRbac: PolicyRule[] = [
  { apiGroups: ['exposer.hliangzhao.io'], resources: ['balancers'], verbs: ['list', 'watch'] },
  { apiGroups: ['exposer.hliangzhao.io'], resources: ['balancers/status'], verbs: ['patch'] },
  {
    apiGroups: [''],
    resources: ['services'],
    verbs: ['list', 'watch', 'create', 'update', 'delete'],
  },
  { apiGroups: [''], resources: ['configmaps'], verbs: ['list', 'watch', 'create', 'update'] },
  { apiGroups: ['apps'], resources: ['deployments'], verbs: ['list', 'watch', 'create', 'update'] },
  { apiGroups: [''], resources: ['events'], verbs: ['create', 'patch'] },
];

/** How often a Balancer whose child names are taken looks whether they were freed. */
export const conflictRecheckMs = 30_000;

/**
 * How soon a reconcile that deleted an obsolete backend Service runs again, to count it gone:
 * a fixed delay, not the rate-limited requeue, whose wait grows with the key's failures (after
 * an API server restart's run of them, it held the stale count for tens of seconds, and up to
 * the limiter's maximum of 1,000 s).
 */
export const obsoleteRecheckMs = 200;

/** The reconciler's collaborators, passed in so tests can give their own. */
export interface BalancerReconcilerDeps {
  client: Reader & Writer & StatusWriter;
  recorder: EventRecorder;
  now?: () => Date;
  /** How often a Balancer whose child names are taken looks again (default {@link conflictRecheckMs}). */
  conflictRecheckMs?: number;
}

/** A child the Balancer wants: the object to create, and how to bring a live one in line. */
interface Child<T extends KubernetesObject> {
  desired: T;
  /** Sets the operator's fields on a live (or new) object, nothing else. */
  shape: (live: T) => void;
}

/** Objects that bear a child's name but that this Balancer does not control. */
type Conflicts = string[];
/** The children a reconcile created and updated, as `Kind name`: one Event each. */
type Changes = { created: string[]; updated: string[] };

/**
 * Brings a live Service in line with `desired`: its labels added, the selector exactly
 * `desired`'s (a removed key must go; none at all when `desired` has none, as for a backend
 * Service of a Balancer with neither `spec.selector` nor a backend selector), the ports
 * overlaid (keeping what the API server filled).
 */
function shapeService(live: Service, desired: Service): void {
  overlay(live, { metadata: { labels: desired.metadata?.labels } });
  const spec = live.spec ?? {};
  live.spec = spec;
  if (desired.spec?.selector === undefined) delete spec.selector;
  else spec.selector = { ...desired.spec.selector };
  overlay(spec, { ports: desired.spec?.ports });
}

const kindAndName = (object: KubernetesObject) => `${object.kind} ${object.metadata?.name ?? ''}`;

/**
 * Reconciles one Balancer, level-based: whatever woke it up, it drives the world to
 *
 * 1. one backend Service `<name>-<backend>-backend` per backend, a ConfigMap
 *    `<name>proxy-config` with the generated nginx.conf, a proxy Deployment `<name>proxy`
 *    whose Pod template carries the config's hash, and the front Service `<name>`, all
 *    controlled by the Balancer (created in that order: nginx resolves the backend Services
 *    when it starts);
 * 2. backend Services it controls that are no longer in the spec deleted;
 * 3. `status.activeBackendsNum` = backends in the spec whose Service exists,
 *    `obsoleteBackendsNum` = its backend Services found that are not in the spec (until they
 *    are gone: a reconcile that deleted one runs again {@link obsoleteRecheckMs} later, to count
 *    it gone),
 *    `observedGeneration`, and a `Ready` condition: True (`Available`) once the proxy
 *    Deployment has rolled out, False with `ProxyProgressing` before, or `NameConflict` when an
 *    object with a child's name exists that the Balancer does not control.
 *
 * An object it does not control is never changed or deleted: it is reported in the condition
 * and a Warning event, the other children are still reconciled, and the Balancer looks again
 * every {@link conflictRecheckMs} until the name is free. Writes go only where a
 * field the operator sets differs, so a reconcile of a converged Balancer writes nothing.
 * Deletion needs no finalizer: every child has a controller reference.
 */
export function balancerReconciler(deps: BalancerReconcilerDeps) {
  const { client, recorder } = deps;
  const now = deps.now ?? (() => new Date());
  const recheckMs = deps.conflictRecheckMs ?? conflictRecheckMs;

  /**
   * Creates or updates one child unless another owner has its name; notes what it did in
   * `changes` (`created` or `updated`, each a list of `Kind name`).
   */
  async function ensure<T extends KubernetesObject>(
    balancer: Balancer,
    child: Child<T>,
    conflicts: Conflicts,
    changes: Changes,
    { log, signal }: ReconcileContext,
  ): Promise<T | undefined> {
    const { desired } = child;
    const existing = await ignoreNotFound(client.get<T>(desired, { signal }));
    if (existing && !isControlledBy(existing, balancer)) {
      conflicts.push(kindAndName(desired));
      return undefined;
    }
    const { result, object } = await createOrUpdate(
      client,
      existing ?? desired,
      (live) => {
        child.shape(live);
        setControllerReference(balancer, live);
      },
      { signal },
    );
    if (result !== 'unchanged') {
      changes[result].push(kindAndName(desired));
      log.info({ kind: desired.kind, name: desired.metadata?.name }, `${result} ${desired.kind}`);
    }
    return object;
  }

  return async (request: Request, context: ReconcileContext): Promise<Result | undefined> => {
    const { log } = context;
    const balancer = await ignoreNotFound(
      client.get(balancerResource, request.name, request.namespace),
    );
    if (balancer === undefined || balancer.metadata.deletionTimestamp) return undefined;
    const nameProblems = balancerNameProblems(
      balancer.metadata.name ?? '',
      balancer.spec.backends.map((backend) => backend.name),
    );
    if (nameProblems.length > 0) {
      // Reported once on the object and not retried: the API server would refuse every attempt.
      const message = nameProblems.join('; ');
      const counts = {
        active: balancer.status?.activeBackendsNum ?? 0,
        obsolete: balancer.status?.obsoleteBackendsNum ?? 0,
      };
      if (await writeStatus(client, balancer, counts, false, 'InvalidName', message, now)) {
        recorder.event(balancer, 'Warning', 'InvalidName', message);
      }
      return undefined;
    }
    const conflicts: Conflicts = [];
    const changes: Changes = { created: [], updated: [] };
    const conf = nginxConfig(balancer);

    // 1. The backend Services, then nginx's config and Deployment, then the front Service.
    // In parallel (they are independent), noted in spec order.
    const backendChanges = balancer.spec.backends.map(
      (): Changes => ({ created: [], updated: [] }),
    );
    const backendServices = await Promise.all(
      balancer.spec.backends.map((backend, index) => {
        const desired = backendService(balancer, backend);
        return ensure(
          balancer,
          {
            desired,
            shape: (live: Service) => shapeService(live, desired),
          },
          conflicts,
          backendChanges[index] ?? changes,
          context,
        );
      }),
    );
    for (const noted of backendChanges) {
      changes.created.push(...noted.created);
      changes.updated.push(...noted.updated);
    }
    const active = backendServices.filter((service) => service !== undefined).length;
    const configMap = proxyConfigMap(balancer, conf);
    await ensure(
      balancer,
      {
        desired: configMap,
        shape: (live: ConfigMap) => {
          overlay(live, { metadata: { labels: configMap.metadata?.labels } });
          live.data = { ...configMap.data };
        },
      },
      conflicts,
      changes,
      context,
    );
    const deployment = proxyDeployment(balancer, conf);
    const proxy = await ensure(
      balancer,
      {
        desired: deployment,
        shape: (live: Deployment) => {
          const { replicas: _replicas, selector: _selector, ...updatable } = deployment.spec ?? {};
          overlay(live, { metadata: { labels: deployment.metadata?.labels }, spec: updatable });
        },
      },
      conflicts,
      changes,
      context,
    );
    const front = frontService(balancer);
    await ensure(
      balancer,
      {
        desired: front,
        shape: (live: Service) => shapeService(live, front),
      },
      conflicts,
      changes,
      context,
    );

    // One Event for what this reconcile created and one for what it updated.
    if (changes.created.length > 0) {
      recorder.event(balancer, 'Normal', 'Created', `Created ${changes.created.join(', ')}`);
    }
    if (changes.updated.length > 0) {
      recorder.event(balancer, 'Normal', 'Updated', `Updated ${changes.updated.join(', ')}`);
    }

    // 2. Backend Services this Balancer controls that the spec no longer lists.
    const wanted = new Set(balancer.spec.backends.map((backend) => backend.name));
    const { items } = await client.list(services, {
      namespace: request.namespace,
      labelSelector: { matchLabels: { [balancerNameLabel]: request.name } },
    });
    const obsolete = items.filter((service) => {
      const backend = service.metadata?.labels?.[backendNameLabel];
      return backend !== undefined && !wanted.has(backend) && isControlledBy(service, balancer);
    });
    let deletedNow = 0;
    for (const service of obsolete) {
      if (service.metadata?.deletionTimestamp) continue;
      await ignoreNotFound(client.delete(service));
      deletedNow++;
      recorder.event(
        balancer,
        'Normal',
        'DeletedService',
        `Deleted obsolete backend ${kindAndName(service)}`,
      );
      log.info({ service: service.metadata?.name }, 'deleted an obsolete backend Service');
    }

    // 3. The status.
    const counts = { active, obsolete: obsolete.length };
    const [ready, reason, message] = readiness(proxy, conflicts);
    if (await writeStatus(client, balancer, counts, ready, reason, message, now)) {
      if (reason === 'NameConflict') {
        recorder.event(balancer, 'Warning', reason, message);
        log.warn(
          { conflicts },
          'objects with the names of its children are not its own; left alone',
        );
      } else {
        log.info({ ready, reason, ...counts }, 'updated the status');
      }
    }
    // A Service it just deleted is counted obsolete above, and the event of its own delete
    // does not wake it (the manager skips events of a controller's own writes): look again
    // shortly to count it gone. (Found by fault exploration: restarted after updating the other
    // children, it deleted the Service and reported it obsolete for good; and, on
    // kube-apiserver, asking with `requeue` after an API server restart's failures waited out
    // their backoff: see obsoleteRecheckMs.)
    if (deletedNow > 0) return { requeueAfterMs: obsoleteRecheckMs };
    // Objects it does not control raise no event for it: look again later to see them gone.
    return conflicts.length > 0 ? { requeueAfterMs: recheckMs } : undefined;
  };
}

/** The Ready condition: conflicts first, then whether the proxy Deployment has rolled out. */
function readiness(proxy: Deployment | undefined, conflicts: Conflicts): [boolean, string, string] {
  if (conflicts.length > 0) {
    return [
      false,
      'NameConflict',
      `${conflicts.join(', ')} exist${conflicts.length === 1 ? 's' : ''} and ${conflicts.length === 1 ? 'is' : 'are'} not controlled by this Balancer, so ${conflicts.length === 1 ? 'it was' : 'they were'} left alone; delete or rename ${conflicts.length === 1 ? 'it' : 'them'}, and the Balancer will create its own`,
    ];
  }
  if (proxy === undefined)
    return [false, 'ProxyProgressing', 'the proxy Deployment is being created'];
  // Rolled out as `kubectl rollout status` sees it: the Deployment controller has seen this
  // spec, and all replicas are updated and available.
  const wanted = proxy.spec?.replicas ?? 1;
  const status = proxy.status ?? {};
  const available = status.availableReplicas ?? 0;
  const rolledOut =
    (status.observedGeneration ?? 0) >= (proxy.metadata?.generation ?? 1) &&
    (status.updatedReplicas ?? 0) >= wanted &&
    (status.replicas ?? 0) <= wanted &&
    available >= wanted;
  const name = proxy.metadata?.name ?? '';
  return rolledOut
    ? [true, 'Available', `proxy Deployment ${name} has ${available}/${wanted} replicas available`]
    : [
        false,
        'ProxyProgressing',
        `waiting for proxy Deployment ${name}: ${available}/${wanted} replicas available`,
      ];
}

/** Patches the counts, observedGeneration and the Ready condition when any of them changed. */
async function writeStatus(
  client: StatusWriter,
  balancer: Balancer,
  counts: { active: number; obsolete: number },
  ready: boolean,
  reason: string,
  message: string,
  now: () => Date,
): Promise<boolean> {
  const next = structuredClone(balancer);
  const conditionChanged = setCondition(
    next,
    { type: 'Ready', status: ready ? 'True' : 'False', reason, message },
    { now },
  );
  const generation = balancer.metadata.generation;
  const status = balancer.status ?? {};
  if (
    !conditionChanged &&
    status.activeBackendsNum === counts.active &&
    status.obsoleteBackendsNum === counts.obsolete &&
    status.observedGeneration === generation
  ) {
    return false;
  }
  await client.patchStatus(
    balancer,
    {
      status: {
        activeBackendsNum: counts.active,
        obsoleteBackendsNum: counts.obsolete,
        observedGeneration: generation,
        conditions: next.status?.conditions,
      },
    },
    'merge',
  );
  return true;
}
