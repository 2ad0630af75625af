/**
 * ConfigMaps as Helm and `kubectl apply` leave them on a cluster: 7 labels, 5 annotations
 * (among them `kubectl.kubernetes.io/last-applied-configuration`, the whole applied object
 * as JSON) and 4 data keys, about 2.2 KB of JSON each once the server has added uid,
 * resourceVersion and timestamps. The same on every server.
 */

/** The data of ConfigMap `index`: an application config, a log config and two values. */
function helmData(index: number): Record<string, string> {
  return {
    'application.yaml': `server:\n  port: 8080\n  shutdown: graceful\nfeatures:\n  search: ${index % 2 === 0}\n  recommendations: true\ncache:\n  ttlSeconds: ${300 + (index % 60)}\n  maxEntries: 10000\nupstream:\n  url: http://catalog.storefront.svc:8080\n  timeout: 2s\n`,
    'logback.xml': `<configuration><root level="INFO"><appender-ref ref="JSON"/></root></configuration>`,
    REGION: index % 3 === 0 ? 'eu-west-1' : 'us-east-1',
    REPLICA_INDEX: String(index),
  };
}

/** The body to create ConfigMap `<prefix>-<index>` in `namespace` with, as `helm upgrade --install` would. */
export function helmConfigMapManifest(
  namespace: string,
  prefix: string,
  index: number,
): Record<string, unknown> {
  const name = `${prefix}-${index}`;
  const release = `storefront-${index % 20}`;
  const labels = {
    'app.kubernetes.io/name': prefix,
    'app.kubernetes.io/instance': release,
    'app.kubernetes.io/version': `1.24.${index % 10}`,
    'app.kubernetes.io/component': index % 2 === 0 ? 'api' : 'worker',
    'app.kubernetes.io/part-of': 'storefront',
    'app.kubernetes.io/managed-by': 'Helm',
    'helm.sh/chart': `storefront-3.${index % 7}.0`,
  };
  const data = helmData(index);
  const applied = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      annotations: { 'meta.helm.sh/release-name': release },
      labels,
      name,
      namespace,
    },
    data,
  };
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name,
      namespace,
      labels,
      annotations: {
        'kubectl.kubernetes.io/last-applied-configuration': `${JSON.stringify(applied)}\n`,
        'meta.helm.sh/release-name': release,
        'meta.helm.sh/release-namespace': namespace,
        'checksum/config': (0x9e3779b97f4a7c15n * BigInt(index + 1))
          .toString(16)
          .padStart(16, '0')
          .slice(-16),
        'deployment.kubernetes.io/revision': String(1 + (index % 5)),
      },
    },
    data,
  };
}
