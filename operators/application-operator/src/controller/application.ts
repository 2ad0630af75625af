import {
  addFinalizerPatch,
  type Client,
  createOrUpdate,
  type EventRecorder,
  hasFinalizer,
  ignoreNotFound,
  isControlledBy,
  type KubernetesObject,
  type PolicyRule,
  type ReconcileContext,
  type Request,
  type Result,
  removeFinalizerPatch,
  setControllerReference,
  setStatusCondition,
} from '@ops/core';
import {
  type Application,
  applicationFinalizer,
  applicationResource,
  deploymentName,
} from '../api/v1/application.js';

/**
 * The permissions this controller uses, declared next to it (what kubebuilder's rbac markers
 * do). `pnpm manifests` turns them into config/rbac/role.yaml; the end-to-end tests run the
 * operator under exactly that role, so a missing rule fails them with the real 403.
 */
export const applicationRbac: PolicyRule[] = [
  {
    apiGroups: ['core.crd.lixueduan.com'],
    resources: ['applications'],
    verbs: ['list', 'watch', 'patch'],
  },
  { apiGroups: ['core.crd.lixueduan.com'], resources: ['applications/status'], verbs: ['patch'] },
  {
    apiGroups: ['core.crd.lixueduan.com'],
    resources: ['applications/finalizers'],
    verbs: ['update'],
  },
  {
    apiGroups: ['apps'],
    resources: ['deployments'],
    verbs: ['list', 'watch', 'create', 'update', 'delete'],
  },
  { apiGroups: [''], resources: ['events'], verbs: ['create', 'patch'] },
];

type Json = Record<string, unknown>;
interface Container {
  name?: string;
  image?: string;
  [field: string]: unknown;
}
type Deployment = KubernetesObject & {
  spec?: {
    replicas?: number;
    selector?: Json;
    template?: {
      metadata?: { labels?: Record<string, string> };
      spec?: { containers?: Container[] };
    };
  };
  status?: {
    availableReplicas?: number;
    replicas?: number;
    readyReplicas?: number;
    updatedReplicas?: number;
    observedGeneration?: number;
  };
};

/** Labels on the Deployment and its Pods: they select the Pods of one Application. */
function selectorLabels(application: Application): Record<string, string> {
  return {
    'app.kubernetes.io/name': 'application',
    'app.kubernetes.io/instance': application.metadata.name ?? '',
  };
}

/**
 * Sets what the operator owns on the Deployment and nothing else, so fields the API server
 * defaults (imagePullPolicy, strategy...) never look like changes: replicas, labels, the
 * selector (on creation only: it is immutable), the `app` container's image, the owner.
 */
function shapeDeployment(deployment: Deployment, application: Application): void {
  const labels = selectorLabels(application);
  const meta = deployment.metadata ?? {};
  deployment.metadata = meta;
  meta.labels = {
    ...meta.labels,
    ...labels,
    'app.kubernetes.io/managed-by': 'application-operator',
  };
  const spec = deployment.spec ?? {};
  deployment.spec = spec;
  spec.replicas = application.spec.enabled === false ? 0 : 1;
  spec.selector ??= { matchLabels: labels };
  const template = spec.template ?? {};
  spec.template = template;
  template.metadata = { ...template.metadata, labels: { ...template.metadata?.labels, ...labels } };
  const podSpec = template.spec ?? {};
  template.spec = podSpec;
  const containers = podSpec.containers ?? [];
  const app = containers.find((container) => container.name === 'app');
  if (app) app.image = application.spec.image;
  else containers.push({ name: 'app', image: application.spec.image });
  podSpec.containers = containers;
  setControllerReference(application, deployment);
}

/** The reconciler's collaborators, passed in so tests can give their own. */
export interface ApplicationReconcilerDeps {
  client: Client;
  recorder: EventRecorder;
  now?: () => Date;
}

/**
 * Reconciles one Application, level-based: whatever woke it up, it drives the world to
 *
 * 1. a finalizer `lixueduan.com/application` on the Application, first of all;
 * 2. a Deployment `app-<name>` owned by it (controller reference), running `spec.image`
 *    with 1 replica, or 0 when `spec.enabled` is false;
 * 3. `status.ready` = the Deployment has all its replicas available (false when disabled),
 *    with `observedGeneration` and a `Ready` condition saying why;
 * 4. on deletion: the Deployment deleted, then the finalizer removed.
 *
 * A Deployment `app-<name>` that this Application does not control is left alone: the
 * Application reports `Ready=False` with reason `DeploymentConflict` and a Warning event.
 * No write is made when nothing needs changing.
 */
export function applicationReconciler(deps: ApplicationReconcilerDeps) {
  const { client, recorder } = deps;
  const now = deps.now ?? (() => new Date());
  return async (request: Request, { log }: ReconcileContext): Promise<Result | undefined> => {
    const application = await ignoreNotFound(
      client.get<Application>(
        applicationResource.apiVersion,
        applicationResource.kind,
        request.name,
        request.namespace,
      ),
    );
    if (application === undefined) return undefined;
    const name = deploymentName(request.name);

    if (application.metadata.deletionTimestamp) {
      if (!hasFinalizer(application, applicationFinalizer)) return undefined;
      const deployment = await ignoreNotFound(
        client.get<Deployment>('apps/v1', 'Deployment', name, request.namespace),
      );
      if (deployment && isControlledBy(deployment, application)) {
        if (!deployment.metadata?.deletionTimestamp) {
          await ignoreNotFound(client.delete(deployment, { propagationPolicy: 'Background' }));
          recorder.event(
            application,
            'Normal',
            'DeletingDeployment',
            `Deleting Deployment ${name}`,
          );
          log.info({ deployment: name }, 'deleting the Deployment before removing the finalizer');
        }
        return { requeueAfterMs: 1000 };
      }
      await client.patch(
        application,
        removeFinalizerPatch(application, applicationFinalizer),
        'json',
      );
      log.info('Deployment gone; removed the finalizer');
      return undefined;
    }

    if (!hasFinalizer(application, applicationFinalizer)) {
      await client.patch(application, addFinalizerPatch(application, applicationFinalizer), 'json');
      log.info({ finalizer: applicationFinalizer }, 'added the finalizer');
      return undefined;
    }

    const existing = await ignoreNotFound(
      client.get<Deployment>('apps/v1', 'Deployment', name, request.namespace),
    );
    if (existing && !isControlledBy(existing, application)) {
      const message = `Deployment ${name} exists and is not controlled by Application ${request.name}; delete or rename that Deployment, and the Application will create its own`;
      const changed = await writeStatus(
        client,
        application,
        false,
        'DeploymentConflict',
        message,
        now,
      );
      if (changed) {
        recorder.event(application, 'Warning', 'DeploymentConflict', message);
        log.warn({ deployment: name }, 'a Deployment of that name is not ours; leaving it alone');
      }
      return undefined;
    }

    const desired: Deployment = existing ?? {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name, namespace: request.namespace },
    };
    const { result, object } = await createOrUpdate(client, desired, (deployment) =>
      shapeDeployment(deployment as Deployment, application),
    );
    const deployment = object as Deployment;
    if (result === 'created') {
      recorder.event(
        application,
        'Normal',
        'CreatedDeployment',
        `Created Deployment ${name} running ${application.spec.image}`,
      );
      log.info({ deployment: name, image: application.spec.image }, 'created the Deployment');
    } else if (result === 'updated') {
      recorder.event(
        application,
        'Normal',
        'UpdatedDeployment',
        `Updated Deployment ${name}: image ${application.spec.image}, ${application.spec.enabled === false ? 'disabled' : 'enabled'}`,
      );
      log.info(
        {
          deployment: name,
          image: application.spec.image,
          enabled: application.spec.enabled !== false,
        },
        'updated the Deployment',
      );
    }

    const desiredReplicas = application.spec.enabled === false ? 0 : 1;
    // Ready as `kubectl rollout status` sees it: the Deployment controller has seen this
    // spec, and the new Pods are all updated and available.
    const available = deployment.status?.availableReplicas ?? 0;
    const rolledOut =
      result !== 'updated' &&
      (deployment.status?.observedGeneration ?? 0) >= (deployment.metadata?.generation ?? 1) &&
      (deployment.status?.updatedReplicas ?? 0) >= desiredReplicas &&
      (deployment.status?.replicas ?? 0) <= desiredReplicas;
    const ready = desiredReplicas > 0 && rolledOut && available >= desiredReplicas;
    const [reason, message] =
      application.spec.enabled === false
        ? ['Disabled', 'spec.enabled is false: the Deployment is scaled to zero']
        : ready
          ? [
              'DeploymentAvailable',
              `Deployment ${name} has ${available}/${desiredReplicas} replicas available`,
            ]
          : [
              'DeploymentProgressing',
              `waiting for Deployment ${name}: ${available}/${desiredReplicas} replicas available`,
            ];
    if (await writeStatus(client, application, ready, reason, message, now)) {
      log.info({ ready, reason }, 'updated the status');
    }
    return undefined;
  };
}

/** Patches status.ready, observedGeneration and the Ready condition when they changed. */
async function writeStatus(
  client: Client,
  application: Application,
  ready: boolean,
  reason: string,
  message: string,
  now: () => Date,
): Promise<boolean> {
  const status = structuredClone(application.status ?? {});
  const conditions = status.conditions ?? [];
  const conditionChanged = setStatusCondition(
    conditions,
    {
      type: 'Ready',
      status: ready ? 'True' : 'False',
      reason,
      message,
      observedGeneration: application.metadata.generation ?? 0,
    },
    { now },
  );
  const changed =
    conditionChanged ||
    status.ready !== ready ||
    status.observedGeneration !== application.metadata.generation;
  if (!changed) return false;
  await client.patchStatus(
    application,
    { status: { ready, observedGeneration: application.metadata.generation, conditions } },
    'merge',
  );
  return true;
}
