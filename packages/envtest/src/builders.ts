import type { KubernetesObject } from '@ops/api';

/** A Namespace object. */
export function namespace(name: string, labels: Record<string, string> = {}): KubernetesObject {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } };
}

/** A ConfigMap object. */
export function configMap(
  namespaceName: string,
  name: string,
  data: Record<string, string> = {},
  labels: Record<string, string> = {},
): KubernetesObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace: namespaceName, labels },
    data,
  };
}

/** A one-container Deployment whose Pods carry `app: <name>`. */
export function deployment(
  namespaceName: string,
  name: string,
  image: string,
  replicas = 1,
): KubernetesObject {
  const labels = { app: name };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: namespaceName, labels },
    spec: {
      replicas,
      selector: { matchLabels: labels },
      template: { metadata: { labels }, spec: { containers: [{ name, image }] } },
    },
  };
}

/** A one-container Pod. */
export function pod(
  namespaceName: string,
  name: string,
  image: string,
  labels: Record<string, string> = {},
): KubernetesObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: namespaceName, labels },
    spec: { containers: [{ name: 'main', image }] },
  };
}
