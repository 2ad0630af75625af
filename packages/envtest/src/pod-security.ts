/**
 * The Pod Security Standards an operator's manager runs under: the namespace label that
 * enforces `restricted`, the Pod the manager Deployment makes, and the check that the API
 * server's `PodSecurity` admission admits it.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { KubernetesObject } from '@ops/api';
import { kubeRequest } from './kube-request.js';

/** The namespace label the `PodSecurity` admission plugin enforces a standard from. */
export const podSecurityEnforceLabel = 'pod-security.kubernetes.io/enforce';

/**
 * The Namespace `name` as an operator's test creates it: the rendered install's Namespace of
 * that name (its labels and annotations), with `pod-security.kubernetes.io/enforce:
 * restricted` added unless it sets that label itself (an explicit level wins); a Namespace
 * of that name and only that label when the install has none. A new object; `objects` is not
 * changed.
 */
export function operatorNamespaceOf(
  objects: readonly KubernetesObject[],
  name: string,
): KubernetesObject {
  const rendered = objects.find(
    (object) => object.kind === 'Namespace' && object.metadata?.name === name,
  );
  const labels = { ...(rendered?.metadata?.labels ?? {}) };
  if (labels[podSecurityEnforceLabel] === undefined) labels[podSecurityEnforceLabel] = 'restricted';
  const annotations = rendered?.metadata?.annotations;
  return {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name, labels, ...(annotations ? { annotations } : {}) },
  };
}

/**
 * The Pod a Deployment's ReplicaSet would make of its Pod template: in the Deployment's
 * namespace, named `<deployment>-admission-check`, with the template's labels, annotations
 * and spec. A new object.
 *
 * @throws {Error} naming the Deployment when it has no Pod template spec.
 */
export function managerPodOf(deployment: KubernetesObject): KubernetesObject {
  const template = (
    deployment as {
      spec?: { template?: { metadata?: KubernetesObject['metadata']; spec?: unknown } };
    }
  ).spec?.template;
  const name = deployment.metadata?.name ?? '';
  if (template?.spec === undefined)
    throw new Error(
      `Deployment ${deployment.metadata?.namespace ?? ''}/${name} has no spec.template.spec: render the operator's config/default (kubectl kustomize) and pass its manager Deployment`,
    );
  const { labels, annotations } = template.metadata ?? {};
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `${name}-admission-check`,
      ...(deployment.metadata?.namespace ? { namespace: deployment.metadata.namespace } : {}),
      ...(labels ? { labels } : {}),
      ...(annotations ? { annotations } : {}),
    },
    spec: structuredClone(template.spec),
  } as KubernetesObject;
}

/**
 * Creates `namespace` (a Namespace object, e.g. {@link operatorNamespaceOf}'s) as `admin`,
 * or, when it exists already, merge-patches its labels onto it, so the namespace enforces
 * what the object says either way.
 *
 * @throws {Error} quoting the API server's answer when it refuses either.
 */
export async function applyNamespace(
  admin: KubeConfig,
  namespace: KubernetesObject,
): Promise<void> {
  const name = namespace.metadata?.name ?? '';
  const created = await kubeRequest(admin, 'POST', '/api/v1/namespaces', namespace);
  if (created.status < 300) return;
  if (created.status !== 409)
    throw new Error(`could not create namespace ${name}: ${JSON.stringify(created.body)}`);
  const patched = await kubeRequest(
    admin,
    'PATCH',
    `/api/v1/namespaces/${name}`,
    { metadata: { labels: namespace.metadata?.labels ?? {} } },
    { contentType: 'application/merge-patch+json' },
  );
  if (patched.status >= 300)
    throw new Error(`could not label namespace ${name}: ${JSON.stringify(patched.body)}`);
}

/**
 * Asks the API server to admit `pod` without storing it (a server-side dry run: every
 * admission plugin, `PodSecurity` included, judges it as it would a real create) and
 * resolves with the Pod as admitted.
 *
 * @throws {Error} naming the Pod and its namespace and quoting the API server's status and
 * message when it is refused (a Pod Security violation reads `violates PodSecurity
 * "restricted:latest": ...`).
 */
export async function dryRunCreatePod(
  admin: KubeConfig,
  pod: KubernetesObject,
): Promise<KubernetesObject> {
  const namespace = pod.metadata?.namespace ?? 'default';
  const response = await kubeRequest(
    admin,
    'POST',
    `/api/v1/namespaces/${namespace}/pods?dryRun=All`,
    pod,
  );
  if (response.status !== 201 && response.status !== 200) {
    const message = (response.body as { message?: string } | undefined)?.message;
    throw new Error(
      `Pod ${namespace}/${pod.metadata?.name ?? ''} is not admitted (HTTP ${response.status}): ${message ?? JSON.stringify(response.body)}`,
    );
  }
  return response.body as KubernetesObject;
}
