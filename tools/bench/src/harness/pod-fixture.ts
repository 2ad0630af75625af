/**
 * Realistic Pods for the benchmarks: what a Deployment's Pod looks like on a real cluster
 * (a container with env, a probe, resources and mounts; a projected service-account
 * volume; tolerations; a Running status with conditions and container statuses), about
 * 3 KB of JSON once the server has added uid, resourceVersion and timestamps. There are no
 * managedFields (the local API server does not write them), so no library gains from
 * stripping them.
 */

/** The body to create Pod number `index` of `namespace` with (no status: the server drops it). */
export function podManifest(namespace: string, index: number): Record<string, unknown> {
  const app = `web-${index % 50}`;
  const hash = (0x5f3a1c + index * 7919).toString(16).slice(-6);
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `${app}-${hash}-${index.toString(36).padStart(5, '0')}`,
      namespace,
      labels: {
        app,
        'app.kubernetes.io/name': app,
        'app.kubernetes.io/part-of': 'storefront',
        'pod-template-hash': hash,
        tier: index % 3 === 0 ? 'backend' : 'frontend',
      },
      annotations: {
        'kubectl.kubernetes.io/restartedAt': '2025-01-14T09:21:37Z',
        'prometheus.io/scrape': 'true',
      },
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          name: `${app}-${hash}`,
          uid: `0b7c3f9e-4a1d-4c2b-9e8f-${(100000000000 + index).toString(16).slice(-12)}`,
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: {
      containers: [
        {
          name: 'app',
          image: `registry.example.com/storefront/${app}:1.24.${index % 10}`,
          imagePullPolicy: 'IfNotPresent',
          ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }],
          env: [
            { name: 'LOG_LEVEL', value: 'info' },
            {
              name: 'POD_NAME',
              valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } },
            },
          ],
          resources: {
            requests: { cpu: '100m', memory: '128Mi' },
            limits: { cpu: '500m', memory: '256Mi' },
          },
          readinessProbe: { httpGet: { path: '/ready', port: 'http' }, periodSeconds: 5 },
          volumeMounts: [
            { name: 'config', mountPath: '/etc/storefront', readOnly: true },
            {
              name: 'kube-api-access',
              mountPath: '/var/run/secrets/kubernetes.io/serviceaccount',
              readOnly: true,
            },
          ],
          terminationMessagePath: '/dev/termination-log',
          terminationMessagePolicy: 'File',
        },
      ],
      volumes: [
        { name: 'config', configMap: { name: `${app}-config`, defaultMode: 420 } },
        {
          name: 'kube-api-access',
          projected: {
            defaultMode: 420,
            sources: [
              { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
              {
                configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] },
              },
            ],
          },
        },
      ],
      nodeName: `node-${index % 20}`,
      serviceAccountName: 'storefront',
      restartPolicy: 'Always',
      dnsPolicy: 'ClusterFirst',
      schedulerName: 'default-scheduler',
      terminationGracePeriodSeconds: 30,
      tolerations: [
        {
          key: 'node.kubernetes.io/not-ready',
          operator: 'Exists',
          effect: 'NoExecute',
          tolerationSeconds: 300,
        },
        {
          key: 'node.kubernetes.io/unreachable',
          operator: 'Exists',
          effect: 'NoExecute',
          tolerationSeconds: 300,
        },
      ],
    },
  };
}

/** The Running status of Pod number `index` (written through the status subresource). */
export function podStatus(index: number): Record<string, unknown> {
  const ip = `10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`;
  const at = '2025-01-14T09:21:40Z';
  const condition = (type: string) => ({ type, status: 'True', lastTransitionTime: at });
  const running = (name: string, image: string, id: number) => ({
    name,
    image,
    imageID: `${image.split(':')[0]}@sha256:${'9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'.slice(0, 64)}`,
    containerID: `containerd://${(index * 1_000_003 + id).toString(16).padStart(16, '0')}`,
    ready: true,
    started: true,
    restartCount: 0,
    state: { running: { startedAt: at } },
  });
  return {
    phase: 'Running',
    conditions: [
      condition('Initialized'),
      condition('Ready'),
      condition('ContainersReady'),
      condition('PodScheduled'),
    ],
    hostIP: `192.168.0.${index % 20}`,
    podIP: ip,
    podIPs: [{ ip }],
    startTime: at,
    qosClass: 'Burstable',
    containerStatuses: [
      running('app', `registry.example.com/storefront/web-${index % 50}:1.24.${index % 10}`, 1),
    ],
  };
}
