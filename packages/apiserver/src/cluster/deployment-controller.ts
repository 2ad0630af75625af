import type { KubernetesObject } from '@ops/api';
import {
  type BuiltInConditionInput,
  formatRfc3339Seconds,
  isJsonObject,
  jsonEqual,
  setBuiltInCondition,
} from '@ops/api';
import { StatusError } from '../api/status-error.js';
import { type Json, numberOr, objectOr, objectsOf } from '../json/json.js';
import type { StoreEvent } from '../store/object-store.js';
import { isPodTerminal } from './conditions.js';
import type { Controller } from './controller.js';
import type { ControllerClient } from './controller-client.js';
import {
  controllerKeys,
  controllerName,
  controllerReference,
  controllerUid,
  namespacedKey,
  specOf,
  splitKey,
  statusOf,
} from './object-fields.js';
import { podTemplateHash, podTemplateHashLabel } from './pod-template-hash.js';
import type { ReconcileResult } from './reconcile-loop.js';

/** Annotations the deployment controller keeps on its ReplicaSets (and the Deployment). */
export const deploymentAnnotations = {
  revision: 'deployment.kubernetes.io/revision',
  desiredReplicas: 'deployment.kubernetes.io/desired-replicas',
  maxReplicas: 'deployment.kubernetes.io/max-replicas',
} as const;

const revisionOf = (rs: KubernetesObject): number => {
  const value = Number(rs.metadata?.annotations?.[deploymentAnnotations.revision] ?? 0);
  return Number.isFinite(value) ? value : 0;
};
const replicasOf = (rs: KubernetesObject): number => numberOr(specOf(rs).replicas, 0);
const availableOf = (rs: KubernetesObject): number => numberOr(statusOf(rs).availableReplicas, 0);
const byCreation = (a: KubernetesObject, b: KubernetesObject): number => {
  const x = a.metadata?.creationTimestamp ?? '';
  const y = b.metadata?.creationTimestamp ?? '';
  return x === y ? ((a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : 1) : x < y ? -1 : 1;
};

/** A Pod template without the `pod-template-hash` label, for comparing templates. */
function withoutHash(template: unknown): unknown {
  if (!isJsonObject(template)) return template;
  const copy = structuredClone(template);
  const meta = objectOr(copy.metadata);
  if (isJsonObject(meta.labels)) {
    delete meta.labels[podTemplateHashLabel];
    if (Object.keys(meta.labels).length === 0) delete meta.labels;
  }
  return copy;
}

/** `maxSurge`/`maxUnavailable` (int or percent) of `replicas`, rounding up or down as kube. */
function scaledValue(value: unknown, replicas: number, roundUp: boolean, fallback: string): number {
  const raw = value ?? fallback;
  if (typeof raw === 'number') return Math.max(0, Math.floor(raw));
  const match = /^(\d+)%$/.exec(String(raw));
  if (match === null) return Math.max(0, Math.floor(Number(raw)) || 0);
  const exact = (Number(match[1]) * replicas) / 100;
  return roundUp ? Math.ceil(exact) : Math.floor(exact);
}

/** The surge and unavailability a Deployment allows (Recreate: none of either). */
export function rolloutBounds(deployment: KubernetesObject): {
  maxSurge: number;
  maxUnavailable: number;
} {
  const spec = specOf(deployment);
  const strategy = objectOr(spec.strategy);
  if (strategy.type === 'Recreate') return { maxSurge: 0, maxUnavailable: 0 };
  const replicas = numberOr(spec.replicas, 1);
  const rolling = objectOr(strategy.rollingUpdate);
  const maxSurge = scaledValue(rolling.maxSurge, replicas, true, '25%');
  let maxUnavailable = scaledValue(rolling.maxUnavailable, replicas, false, '25%');
  if (maxSurge === 0 && maxUnavailable === 0) maxUnavailable = 1;
  return { maxSurge, maxUnavailable };
}

/**
 * The Deployment controller of kube-controller-manager. Each Deployment gets a ReplicaSet
 * `<deployment>-<hash>` for its current Pod template ({@link podTemplateHash}; the hash is
 * added as the `pod-template-hash` label to the ReplicaSet's labels, selector and template),
 * controlled by the Deployment, with the `deployment.kubernetes.io/revision` annotation
 * (also set on the Deployment). A template change creates a new ReplicaSet and moves Pods to
 * it: `RollingUpdate` within maxSurge/maxUnavailable as kube computes them (old ReplicaSets
 * are scaled down as new Pods become available), `Recreate` by scaling old ones to 0 and
 * waiting for their Pods (terminating ones too) to go first. Replica count changes go to the new ReplicaSet; old
 * ReplicaSets end at 0 and beyond `revisionHistoryLimit` are deleted.
 *
 * `status` (observedGeneration, replicas, updatedReplicas, readyReplicas, availableReplicas,
 * unavailableReplicas, collisionCount and the conditions Available —
 * MinimumReplicasAvailable/MinimumReplicasUnavailable — and Progressing —
 * NewReplicaSetAvailable/ReplicaSetUpdated, Unknown/DeploymentPaused while paused) is
 * written only when it changes, so a settled Deployment causes no writes. Zero counts are
 * omitted, as kube's `omitempty` does. Not simulated: progressDeadlineSeconds
 * (ProgressDeadlineExceeded), proportional scaling during a rollout, adoption of orphan
 * ReplicaSets. A paused Deployment is not scaled or rolled. Keys are `namespace/name`.
 */
export class DeploymentController implements Controller {
  readonly name = 'deployment';

  constructor(private readonly client: ControllerClient) {}

  initialKeys(): string[] {
    return this.client.list('apps', 'deployments').flatMap((d) => namespacedKey(d) ?? []);
  }

  keysFor(resource: string, event: StoreEvent): string[] {
    if (resource === 'apps/deployments') return [event.current.key];
    if (resource === '/pods' && event.type === 'DELETED') {
      // Recreate waits for the last old Pod to go, which changes no ReplicaSet status.
      const pod = event.current.object;
      const namespace = pod.metadata?.namespace ?? '';
      const rsName = controllerName(pod, 'ReplicaSet');
      const rs =
        rsName === undefined
          ? undefined
          : this.client.get('apps', 'replicasets', namespace, rsName);
      const name = controllerName(rs, 'Deployment');
      return name === undefined ? [] : [`${namespace}/${name}`];
    }
    if (resource !== 'apps/replicasets') return [];
    return controllerKeys(event.current.object, event.previous?.object, 'Deployment');
  }

  async reconcile(key: string): Promise<ReconcileResult | undefined> {
    const { namespace, name } = splitKey(key);
    const deployment = this.client.get('apps', 'deployments', namespace, name);
    if (deployment === undefined) return undefined;
    const spec = specOf(deployment);
    if (deployment.metadata?.deletionTimestamp === undefined && spec.paused !== true) {
      const all = this.replicaSetsOf(deployment);
      let newRs = all.find((rs) =>
        jsonEqual(withoutHash(specOf(rs).template), withoutHash(spec.template)),
      );
      const olds = all.filter((rs) => rs !== newRs);
      if (newRs === undefined) newRs = await this.createReplicaSet(deployment, olds);
      else newRs = await this.ensureRevision(newRs, olds);
      await this.rollout(deployment, newRs, olds);
      await this.cleanup(deployment, newRs);
      await this.setRevisionAnnotation(deployment, newRs);
    }
    await this.updateStatus(namespace, name);
    return undefined;
  }

  private replicaSetsOf(deployment: KubernetesObject): KubernetesObject[] {
    const uid = deployment.metadata?.uid ?? '';
    return this.client
      .listControlledBy('apps', 'replicasets', deployment.metadata?.namespace ?? '', uid)
      .filter((rs) => controllerUid(rs, 'Deployment') === uid);
  }

  private async createReplicaSet(
    deployment: KubernetesObject,
    olds: KubernetesObject[],
  ): Promise<KubernetesObject> {
    const spec = specOf(deployment);
    const namespace = deployment.metadata?.namespace ?? '';
    const collisionCount = numberOr(statusOf(deployment).collisionCount, 0);
    const hash = podTemplateHash(spec.template, collisionCount);
    const name = `${deployment.metadata?.name ?? ''}-${hash}`;
    const template = structuredClone(objectOr(spec.template));
    const templateMeta = objectOr(template.metadata);
    template.metadata = templateMeta;
    templateMeta.labels = { ...objectOr(templateMeta.labels), [podTemplateHashLabel]: hash };
    const selector = structuredClone(objectOr(spec.selector));
    selector.matchLabels = { ...objectOr(selector.matchLabels), [podTemplateHashLabel]: hash };
    const replicas = numberOr(spec.replicas, 1);
    const { maxSurge } = rolloutBounds(deployment);
    const oldPods = olds.reduce((sum, rs) => sum + replicasOf(rs), 0);
    const initial =
      oldPods === 0
        ? replicas
        : objectOr(spec.strategy).type === 'Recreate'
          ? 0
          : Math.max(0, Math.min(replicas, replicas + maxSurge - oldPods));
    const body: KubernetesObject = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        name,
        namespace,
        labels: { ...(templateMeta.labels as Record<string, string>) },
        annotations: {
          [deploymentAnnotations.revision]: String(Math.max(0, ...olds.map(revisionOf)) + 1),
          [deploymentAnnotations.desiredReplicas]: String(replicas),
          [deploymentAnnotations.maxReplicas]: String(replicas + maxSurge),
        },
        ownerReferences: [controllerReference(deployment)],
      },
      spec: {
        replicas: initial,
        minReadySeconds: numberOr(spec.minReadySeconds, 0),
        selector,
        template,
      },
    };
    try {
      return await this.client.create('apps', 'replicasets', namespace, body);
    } catch (error) {
      if (!(StatusError.isInstance(error) && error.code === 409)) throw error;
      const existing = this.client.get('apps', 'replicasets', namespace, name);
      if (
        existing !== undefined &&
        controllerUid(existing, 'Deployment') === deployment.metadata?.uid &&
        jsonEqual(withoutHash(specOf(existing).template), withoutHash(spec.template))
      ) {
        return existing;
      }
      // A hash collision with another ReplicaSet: count it, so the next hash differs.
      const bumped = structuredClone(deployment);
      bumped.status = { ...statusOf(deployment), collisionCount: collisionCount + 1 };
      await this.client.update('apps', 'deployments', bumped, 'status');
      throw StatusError.conflict(
        { group: 'apps', resource: 'replicasets', kind: 'ReplicaSet' },
        name,
        'pod-template-hash collision; retrying with a new collisionCount',
      );
    }
  }

  /** A ReplicaSet that becomes current again (a rollback) gets the next revision. */
  private async ensureRevision(
    newRs: KubernetesObject,
    olds: KubernetesObject[],
  ): Promise<KubernetesObject> {
    const maxOld = Math.max(0, ...olds.map(revisionOf));
    if (revisionOf(newRs) > maxOld) return newRs;
    const copy = structuredClone(newRs);
    const meta = copy.metadata ?? {};
    meta.annotations = {
      ...meta.annotations,
      [deploymentAnnotations.revision]: String(maxOld + 1),
    };
    return this.client.update('apps', 'replicasets', copy);
  }

  private async scale(
    rs: KubernetesObject,
    replicas: number,
    deployment: KubernetesObject,
  ): Promise<KubernetesObject> {
    const desired = String(numberOr(specOf(deployment).replicas, 1));
    const max = String(
      numberOr(specOf(deployment).replicas, 1) + rolloutBounds(deployment).maxSurge,
    );
    const annotations = rs.metadata?.annotations ?? {};
    if (
      replicasOf(rs) === replicas &&
      annotations[deploymentAnnotations.desiredReplicas] === desired &&
      annotations[deploymentAnnotations.maxReplicas] === max
    ) {
      return rs;
    }
    const copy = structuredClone(rs);
    copy.spec = { ...specOf(rs), replicas };
    const meta = copy.metadata ?? {};
    meta.annotations = {
      ...meta.annotations,
      [deploymentAnnotations.desiredReplicas]: desired,
      [deploymentAnnotations.maxReplicas]: max,
    };
    copy.metadata = meta;
    return this.client.update('apps', 'replicasets', copy);
  }

  private async rollout(
    deployment: KubernetesObject,
    newRsIn: KubernetesObject,
    oldsIn: KubernetesObject[],
  ): Promise<void> {
    const replicas = numberOr(specOf(deployment).replicas, 1);
    let newRs = newRsIn;
    const olds = [...oldsIn].sort(byCreation);
    const active = olds.filter((rs) => replicasOf(rs) > 0);
    if (objectOr(specOf(deployment).strategy).type === 'Recreate') {
      for (const rs of active) await this.scale(rs, 0, deployment);
      const oldUids = new Set(olds.map((rs) => rs.metadata?.uid));
      const oldPodsLeft = this.client
        .list('', 'pods', deployment.metadata?.namespace)
        .some((pod) => !isPodTerminal(pod) && oldUids.has(controllerUid(pod, 'ReplicaSet')));
      if (!oldPodsLeft) await this.scale(newRs, replicas, deployment);
      return;
    }
    if (active.length === 0) {
      await this.scale(newRs, replicas, deployment);
      return;
    }
    const { maxSurge, maxUnavailable } = rolloutBounds(deployment);
    // Scale the new ReplicaSet up, within the surge.
    const total = () => replicasOf(newRs) + olds.reduce((sum, rs) => sum + replicasOf(rs), 0);
    if (replicasOf(newRs) > replicas) {
      newRs = await this.scale(newRs, replicas, deployment);
    } else {
      const room = replicas + maxSurge - total();
      if (room > 0)
        newRs = await this.scale(newRs, Math.min(replicas, replicasOf(newRs) + room), deployment);
    }
    // Scale old ReplicaSets down, keeping the minimum available.
    const minAvailable = replicas - maxUnavailable;
    const newUnavailable = Math.max(0, replicasOf(newRs) - availableOf(newRs));
    let budget = total() - minAvailable - newUnavailable;
    if (budget <= 0) return;
    for (let i = 0; i < olds.length && budget > 0; i++) {
      const rs = olds[i] as KubernetesObject;
      const unhealthy = Math.max(0, replicasOf(rs) - availableOf(rs));
      const cut = Math.min(unhealthy, budget);
      if (cut === 0) continue;
      olds[i] = await this.scale(rs, replicasOf(rs) - cut, deployment);
      budget -= cut;
    }
    const availableNow =
      availableOf(newRs) +
      olds.reduce((sum, rs) => sum + Math.min(availableOf(rs), replicasOf(rs)), 0);
    let excess = availableNow - minAvailable;
    for (let i = 0; i < olds.length && excess > 0; i++) {
      const rs = olds[i] as KubernetesObject;
      const cut = Math.min(replicasOf(rs), excess);
      if (cut === 0) continue;
      olds[i] = await this.scale(rs, replicasOf(rs) - cut, deployment);
      excess -= cut;
    }
  }

  private async cleanup(deployment: KubernetesObject, newRs: KubernetesObject): Promise<void> {
    const limit = numberOr(specOf(deployment).revisionHistoryLimit, 10);
    const idle = this.replicaSetsOf(deployment)
      .filter(
        (rs) =>
          rs.metadata?.uid !== newRs.metadata?.uid && rs.metadata?.deletionTimestamp === undefined,
      )
      .filter((rs) => replicasOf(rs) === 0 && numberOr(statusOf(rs).replicas, 0) === 0)
      .sort((a, b) => revisionOf(a) - revisionOf(b));
    for (const rs of idle.slice(0, Math.max(0, idle.length - limit))) {
      await this.client.delete(
        'apps',
        'replicasets',
        rs.metadata?.namespace ?? '',
        rs.metadata?.name ?? '',
        { preconditions: { uid: rs.metadata?.uid ?? '' } },
      );
    }
  }

  private async setRevisionAnnotation(
    deployment: KubernetesObject,
    newRs: KubernetesObject,
  ): Promise<void> {
    const revision = String(revisionOf(newRs));
    if (deployment.metadata?.annotations?.[deploymentAnnotations.revision] === revision) return;
    const latest = this.client.get(
      'apps',
      'deployments',
      deployment.metadata?.namespace ?? '',
      deployment.metadata?.name ?? '',
    );
    if (latest === undefined) return;
    const copy = structuredClone(latest);
    const meta = copy.metadata ?? {};
    meta.annotations = { ...meta.annotations, [deploymentAnnotations.revision]: revision };
    copy.metadata = meta;
    // Through status, as kube's deployment controller does: no new generation for it.
    await this.client.update('apps', 'deployments', copy, 'status');
  }

  private async updateStatus(namespace: string, name: string): Promise<void> {
    const deployment = this.client.get('apps', 'deployments', namespace, name);
    if (deployment === undefined) return;
    const spec = specOf(deployment);
    const replicas = numberOr(spec.replicas, 1);
    const all = this.replicaSetsOf(deployment);
    const newRs = all.find((rs) =>
      jsonEqual(withoutHash(specOf(rs).template), withoutHash(spec.template)),
    );
    const sum = (field: string) =>
      all.reduce((total, rs) => total + numberOr(statusOf(rs)[field], 0), 0);
    const statusReplicas = sum('replicas');
    const updated = newRs === undefined ? 0 : numberOr(statusOf(newRs).replicas, 0);
    const ready = sum('readyReplicas');
    const available = sum('availableReplicas');
    const unavailable = Math.max(0, replicas - available);
    const old = statusOf(deployment);
    const now = formatRfc3339Seconds(new Date());
    let conditions = objectsOf(old.conditions);
    const { maxUnavailable } = rolloutBounds(deployment);
    conditions = setBuiltInCondition(
      conditions,
      available >= replicas - maxUnavailable
        ? {
            type: 'Available',
            status: 'True',
            reason: 'MinimumReplicasAvailable',
            message: 'Deployment has minimum availability.',
          }
        : {
            type: 'Available',
            status: 'False',
            reason: 'MinimumReplicasUnavailable',
            message: 'Deployment does not have minimum availability.',
          },
      { now, lastUpdateTime: true },
    );
    let progressing: BuiltInConditionInput | undefined;
    if (spec.paused === true) {
      progressing = {
        type: 'Progressing',
        status: 'Unknown',
        reason: 'DeploymentPaused',
        message: 'Deployment is paused',
      };
    } else if (newRs !== undefined) {
      const rsName = newRs.metadata?.name ?? '';
      const complete = updated === replicas && statusReplicas === replicas && available >= replicas;
      progressing = complete
        ? {
            type: 'Progressing',
            status: 'True',
            reason: 'NewReplicaSetAvailable',
            message: `ReplicaSet "${rsName}" has successfully progressed.`,
          }
        : {
            type: 'Progressing',
            status: 'True',
            reason: 'ReplicaSetUpdated',
            message: `ReplicaSet "${rsName}" is progressing.`,
          };
    }
    if (progressing !== undefined)
      conditions = setBuiltInCondition(conditions, progressing, { now, lastUpdateTime: true });
    const status: Json = {};
    if (deployment.metadata?.generation !== undefined)
      status.observedGeneration = deployment.metadata.generation;
    const counts: Array<[string, number]> = [
      ['replicas', statusReplicas],
      ['updatedReplicas', updated],
      ['readyReplicas', ready],
      ['availableReplicas', available],
      ['unavailableReplicas', unavailable],
    ];
    for (const [field, value] of counts) if (value > 0) status[field] = value;
    status.conditions = conditions;
    if (old.collisionCount !== undefined) status.collisionCount = old.collisionCount;
    if (jsonEqual(status, old)) return;
    await this.client.update(
      'apps',
      'deployments',
      { ...structuredClone(deployment), status },
      'status',
    );
  }
}
