import {
  createOrUpdate,
  type Deployment,
  deployments,
  type EventRecorder,
  ignoreNotFound,
  isControlledBy,
  type PolicyRule,
  type Reader,
  type ReconcileContext,
  type Request,
  type Result,
  type StatusWriter,
  setCondition,
  setControllerReference,
  type Writer,
  withFinalizer,
} from '@ops/core';
import {
  type Application,
  applicationFinalizer,
  applicationNameProblems,
  applicationResource,
  deploymentName,
} from '../api/v1/application.js';
import { isValidImageReference } from '../api/v1/image-reference.js';

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
 * selector (on creation only: it is immutable), the `app` container's image (`image`, the
 * Application's valid spec.image), the owner.
 */
function shapeDeployment(deployment: Deployment, application: Application, image: string): void {
  const labels = selectorLabels(application);
  const meta = deployment.metadata;
  meta.labels = {
    ...meta.labels,
    ...labels,
    'app.kubernetes.io/managed-by': 'application-operator',
  };
  // A Deployment about to be created has no spec yet: the selector is set then, only.
  deployment.spec ??= { selector: { matchLabels: labels }, template: {} };
  const spec = deployment.spec;
  spec.replicas = application.spec.enabled === false ? 0 : 1;
  const template = spec.template;
  template.metadata = { ...template.metadata, labels: { ...template.metadata?.labels, ...labels } };
  template.spec ??= { containers: [] };
  const podSpec = template.spec;
  const app = podSpec.containers.find((container) => container.name === 'app');
  if (app) app.image = image;
  else podSpec.containers.push({ name: 'app', image });
  setControllerReference(application, deployment);
}

/**
 * Why the operator cannot run the Application's image, as the reason and message of its
 * `Ready=False` condition; undefined when `spec.image` is a valid image reference. The schema
 * leaves `spec.image` optional (as the tutorial's API does) and the validating webhook
 * refuses a missing or invalid one; this is what an Application admitted without the webhook
 * gets instead of a Deployment that can never start.
 */
export function imageProblem(
  application: Application,
  deployment: string,
): [reason: string, message: string] | undefined {
  const { image } = application.spec;
  const until = `until then Deployment ${deployment} is neither created nor changed`;
  if (image === undefined || image === '') {
    return [
      'MissingImage',
      `spec.image is not set: set spec.image to the container image to run (for example nginx:1.22); ${until}`,
    ];
  }
  if (!isValidImageReference(image)) {
    return [
      'InvalidImage',
      `invalid image name: ${image}: spec.image must be an image reference such as nginx:1.22 or ghcr.io/org/app@sha256:<digest>; ${until}`,
    ];
  }
  return undefined;
}

/** The reconciler's collaborators, passed in so tests can give their own. */
export interface ApplicationReconcilerDeps {
  client: Reader & Writer & StatusWriter;
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
 * A name the operator cannot serve (longer than 63 characters: see
 * {@link applicationNameProblems}; the webhook refuses those at creation) is reported the
 * same way, with reason `InvalidName`, and not retried: nothing is created. So is a missing or
 * invalid `spec.image` ({@link imageProblem}: reason `MissingImage` or `InvalidImage`; the
 * webhook refuses those too): no Deployment is created, and an existing one keeps running its
 * last image, until a new spec brings a valid one.
 * No write is made when nothing needs changing.
 */
export function applicationReconciler(deps: ApplicationReconcilerDeps) {
  const { client, recorder } = deps;
  const now = deps.now ?? (() => new Date());
  return async (
    request: Request,
    { log, signal }: ReconcileContext,
  ): Promise<Result | undefined> => {
    const found = await ignoreNotFound(
      client.get(applicationResource, request.name, request.namespace),
    );
    if (found === undefined) return undefined;
    const name = deploymentName(request.name);
    const getDeployment = () => ignoreNotFound(client.get(deployments, name, request.namespace));

    return withFinalizer(
      client,
      found,
      applicationFinalizer,
      {
        // Deletion: delete the Deployment we control and wait until it is gone.
        cleanup: async (application) => {
          const deployment = await getDeployment();
          if (!deployment || !isControlledBy(deployment, application)) {
            log.info('Deployment gone; removing the finalizer');
            return undefined;
          }
          if (!deployment.metadata.deletionTimestamp) {
            await ignoreNotFound(
              client.delete(deployment, { propagationPolicy: 'Background', signal }),
            );
            recorder.event(
              application,
              'Normal',
              'DeletingDeployment',
              `Deleting Deployment ${name}`,
            );
            log.info({ deployment: name }, 'deleting the Deployment before removing the finalizer');
          }
          return { requeueAfterMs: 1000 };
        },
        apply: async (application) => {
          const [nameProblem] = applicationNameProblems(request.name);
          if (nameProblem !== undefined) {
            if (await writeStatus(client, application, false, 'InvalidName', nameProblem, now)) {
              recorder.event(application, 'Warning', 'InvalidName', nameProblem);
              log.warn({ reason: nameProblem }, 'the name cannot be served; not retrying');
            }
            return undefined;
          }
          const badImage = imageProblem(application, name);
          if (badImage !== undefined) {
            const [reason, message] = badImage;
            if (await writeStatus(client, application, false, reason, message, now)) {
              recorder.event(application, 'Warning', reason, message);
              log.warn(
                { reason, image: application.spec.image },
                'cannot run the image; waiting for a new spec',
              );
            }
            return undefined;
          }
          const existing = await getDeployment();
          if (existing && !isControlledBy(existing, application)) {
            const message = `Deployment ${name} exists and is not controlled by Application ${request.name}; delete or rename that Deployment, and the Application will create its own`;
            if (await writeStatus(client, application, false, 'DeploymentConflict', message, now)) {
              recorder.event(application, 'Warning', 'DeploymentConflict', message);
              log.warn(
                { deployment: name },
                'a Deployment of that name is not ours; leaving it alone',
              );
            }
            return undefined;
          }
          const desired: Deployment = existing ?? {
            apiVersion: 'apps/v1',
            kind: 'Deployment',
            metadata: { name, namespace: request.namespace },
          };
          const image = application.spec.image ?? '';
          const { result, object: deployment } = await createOrUpdate(
            client,
            desired,
            (d) => shapeDeployment(d, application, image),
            { signal },
          );
          const enabled = application.spec.enabled !== false;
          if (result !== 'unchanged') {
            const [reason, note] =
              result === 'created'
                ? ['CreatedDeployment', `Created Deployment ${name} running ${image}`]
                : [
                    'UpdatedDeployment',
                    `Updated Deployment ${name}: image ${image}, ${enabled ? 'enabled' : 'disabled'}`,
                  ];
            recorder.event(application, 'Normal', reason, note);
            log.info({ deployment: name, image, enabled }, `${result} the Deployment`);
          }

          const desiredReplicas = enabled ? 1 : 0;
          // Ready as `kubectl rollout status` sees it: the Deployment controller has seen this
          // spec, and the new Pods are all updated and available.
          const status = deployment.status ?? {};
          const available = status.availableReplicas ?? 0;
          const rolledOut =
            result !== 'updated' &&
            (status.observedGeneration ?? 0) >= (deployment.metadata.generation ?? 1) &&
            (status.updatedReplicas ?? 0) >= desiredReplicas &&
            (status.replicas ?? 0) <= desiredReplicas;
          const ready = desiredReplicas > 0 && rolledOut && available >= desiredReplicas;
          const progress = `${available}/${desiredReplicas} replicas available`;
          const [reason, message] = !enabled
            ? ['Disabled', 'spec.enabled is false: the Deployment is scaled to zero']
            : ready
              ? ['DeploymentAvailable', `Deployment ${name} has ${progress}`]
              : ['DeploymentProgressing', `waiting for Deployment ${name}: ${progress}`];
          if (await writeStatus(client, application, ready, reason, message, now)) {
            log.info({ ready, reason }, 'updated the status');
          }
          return undefined;
        },
      },
      { signal },
    );
  };
}

/** Patches status.ready, observedGeneration and the Ready condition when they changed. */
async function writeStatus(
  client: StatusWriter,
  application: Application,
  ready: boolean,
  reason: string,
  message: string,
  now: () => Date,
): Promise<boolean> {
  const next = structuredClone(application);
  const conditionChanged = setCondition(
    next,
    { type: 'Ready', status: ready ? 'True' : 'False', reason, message },
    { now },
  );
  const generation = application.metadata.generation;
  const status = application.status ?? {};
  if (!conditionChanged && status.ready === ready && status.observedGeneration === generation) {
    return false;
  }
  const conditions = next.status?.conditions;
  await client.patchStatus(
    application,
    { status: { ready, observedGeneration: generation, conditions } },
    'merge',
  );
  return true;
}
