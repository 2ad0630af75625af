import { describe, expect, it } from 'vitest';
import { StatusError } from '../api/status-error.js';
import { kubectlFixtures } from './kubectl-fixtures.js';
import { decodeKubernetesProtobuf, isProtobufContentType } from './kubernetes-protobuf.js';
import { encodeKubernetesProtobuf, WireWriter } from './test-encoder.js';

const hex = (text: string): Buffer => Buffer.from(text.replace(/\s+/g, ''), 'hex');

/** The message of the 400 StatusError that decoding `body` throws. */
const rejection = (body: Buffer): string => {
  try {
    decodeKubernetesProtobuf(body);
  } catch (error) {
    if (!StatusError.isInstance(error)) throw error;
    expect(error.code).toBe(400);
    expect(error.reason).toBe('BadRequest');
    expect(error.message).toContain(
      'send the request body as JSON instead (Content-Type: application/json)',
    );
    return error.message;
  }
  throw new Error('expected a StatusError');
};

/** A body with the given apiVersion/kind around raw object bytes. */
const envelope = (
  apiVersion: string,
  kind: string,
  raw: Uint8Array,
  extra?: (w: WireWriter) => void,
): Buffer => {
  const w = new WireWriter()
    .bytesField(1, new WireWriter().stringField(1, apiVersion).stringField(2, kind).finish())
    .bytesField(2, raw);
  extra?.(w);
  return Buffer.concat([Buffer.from('k8s\0', 'latin1'), w.finish()]);
};

describe('isProtobufContentType', () => {
  it('matches the Kubernetes protobuf media type with any case and parameters', () => {
    expect(isProtobufContentType('application/vnd.kubernetes.protobuf')).toBe(true);
    expect(isProtobufContentType('Application/VND.Kubernetes.Protobuf; charset=binary')).toBe(true);
    expect(isProtobufContentType('application/json')).toBe(false);
    expect(isProtobufContentType('application/vnd.kubernetes.protobuf+json')).toBe(false);
    expect(isProtobufContentType('')).toBe(false);
  });
});

describe('decodeKubernetesProtobuf with real kubectl bodies', () => {
  it.each(kubectlFixtures.map((f) => [f.command, f] as const))('%s', (_command, fixture) => {
    expect(decodeKubernetesProtobuf(hex(fixture.protobufHex))).toStrictEqual(fixture.json);
  });
});

describe('decodeKubernetesProtobuf with hand-assembled bytes', () => {
  it('decodes a Pod laid out as client-go writes it', () => {
    const body = hex(
      `
      6b 38 73 00                          # k8s\\0
      0a 09 0a 02 76 31 12 03 50 6f 64     # typeMeta {apiVersion "v1", kind "Pod"}
      12 1a                                # raw, 26 bytes:
        0a 07 0a 01 70 42 00 38 00         #   metadata {name "p", creationTimestamp {}, generation 0}
        12 0f 12 0d                        #   spec {containers [
          0a 01 63 12 05 6e 67 69 6e 78    #     {name "c", image "nginx",
          90 01 00                         #      tty false}]}
      1a 00 22 00                          # contentEncoding "", contentType ""
    `.replace(/#[^\n]*/g, ''),
    );
    expect(decodeKubernetesProtobuf(body)).toStrictEqual({
      kind: 'Pod',
      apiVersion: 'v1',
      metadata: { name: 'p', creationTimestamp: null },
      spec: { containers: [{ name: 'c', image: 'nginx' }] },
    });
  });

  it('decodes a ConfigMap with Time, labels and an owner reference', () => {
    const owner = new WireWriter()
      .stringField(1, 'Deployment')
      .stringField(3, 'web')
      .stringField(4, 'u-1')
      .stringField(5, 'apps/v1')
      .varintField(6, 1)
      .varintField(7, 0)
      .finish();
    const metadata = new WireWriter()
      .stringField(1, 'cm')
      .stringField(3, '')
      .bytesField(8, new WireWriter().varintField(1, 1136214245).finish())
      .bytesField(11, new WireWriter().stringField(1, 'app').stringField(2, 'web').finish())
      .bytesField(13, owner)
      .finish();
    const raw = new WireWriter()
      .bytesField(1, metadata)
      .bytesField(2, new WireWriter().stringField(1, 'k').stringField(2, 'v').finish())
      .bytesField(3, new WireWriter().stringField(1, 'bin').bytesField(2, [0, 1, 2, 255]).finish())
      .finish();
    expect(decodeKubernetesProtobuf(envelope('v1', 'ConfigMap', raw))).toStrictEqual({
      kind: 'ConfigMap',
      apiVersion: 'v1',
      metadata: {
        name: 'cm',
        creationTimestamp: '2006-01-02T15:04:05Z',
        labels: { app: 'web' },
        ownerReferences: [
          {
            kind: 'Deployment',
            name: 'web',
            uid: 'u-1',
            apiVersion: 'apps/v1',
            controller: true,
            blockOwnerDeletion: false,
          },
        ],
      },
      data: { k: 'v' },
      binaryData: { bin: 'AAEC/w==' },
    });
  });

  it('drops zero omitempty scalars and keeps pointer and non-omitempty ones', () => {
    const container = new WireWriter()
      .stringField(1, '')
      .stringField(2, '')
      .varintField(16, 0)
      .finish();
    const podSpec = new WireWriter()
      .bytesField(2, container)
      .varintField(4, 0) // terminationGracePeriodSeconds *int64
      .stringField(8, '') // serviceAccountName, omitempty
      .varintField(11, 0) // hostNetwork, omitempty bool
      .finish();
    const raw = new WireWriter().bytesField(2, podSpec).finish();
    expect(decodeKubernetesProtobuf(envelope('v1', 'Pod', raw))).toStrictEqual({
      kind: 'Pod',
      apiVersion: 'v1',
      spec: { containers: [{ name: '' }], terminationGracePeriodSeconds: 0 },
    });
  });

  it('accepts packed repeated numbers and merges a repeated singular message', () => {
    const podSecurity = new WireWriter()
      .bytesField(4, [0x01, 0x02, 0xe8, 0x07])
      .varintField(4, 5)
      .finish();
    const spec = new WireWriter()
      .bytesField(14, podSecurity)
      .bytesField(14, new WireWriter().varintField(2, 1000).finish())
      .finish();
    const raw = new WireWriter().bytesField(2, spec).finish();
    expect(decodeKubernetesProtobuf(envelope('v1', 'Pod', raw))).toStrictEqual({
      kind: 'Pod',
      apiVersion: 'v1',
      spec: { securityContext: { supplementalGroups: [1, 2, 1000, 5], runAsUser: 1000 } },
    });
  });

  it('decodes negative int32 and int64 varints', () => {
    const ownerRef = new WireWriter().varintField(10, -1).finish(); // deletionGracePeriodSeconds
    const raw = new WireWriter().bytesField(1, ownerRef).finish();
    const pc = new WireWriter()
      .bytesField(1, new WireWriter().finish())
      .varintField(2, -5)
      .finish();
    expect(decodeKubernetesProtobuf(envelope('v1', 'Pod', raw))).toMatchObject({
      metadata: { deletionGracePeriodSeconds: -1 },
    });
    expect(
      decodeKubernetesProtobuf(envelope('scheduling.k8s.io/v1', 'PriorityClass', pc)),
    ).toStrictEqual({
      kind: 'PriorityClass',
      apiVersion: 'scheduling.k8s.io/v1',
      metadata: {},
      value: -5,
    });
  });
});

describe('decodeKubernetesProtobuf round trips', () => {
  const roundTrip = (object: Record<string, unknown>) =>
    expect(decodeKubernetesProtobuf(encodeKubernetesProtobuf(object))).toStrictEqual(object);

  it('Secret bytes as base64, stringData and type', () => {
    roundTrip({
      kind: 'Secret',
      apiVersion: 'v1',
      metadata: { name: 's', namespace: 'ns', annotations: { a: 'b' }, creationTimestamp: null },
      data: { 'tls.crt': Buffer.from('-----BEGIN-----\n\0\xff').toString('base64'), empty: '' },
      stringData: { x: 'y' },
      type: 'kubernetes.io/tls',
      immutable: false,
    });
  });

  it('Deployment with a full container, IntOrString strategy and replicas 0', () => {
    roundTrip({
      kind: 'Deployment',
      apiVersion: 'apps/v1',
      metadata: {
        name: 'web',
        generation: 3,
        finalizers: ['f'],
        managedFields: [
          {
            manager: 'kubectl',
            operation: 'Update',
            apiVersion: 'apps/v1',
            time: '2024-05-06T07:08:09Z',
            fieldsType: 'FieldsV1',
            fieldsV1: { 'f:spec': { 'f:replicas': {} } },
          },
        ],
      },
      spec: {
        replicas: 0,
        selector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['web'] }] },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: {
            containers: [
              {
                name: 'web',
                image: 'nginx:1.27',
                command: ['nginx'],
                args: ['-g', 'daemon off;'],
                ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }],
                env: [
                  { name: 'A', value: '1' },
                  {
                    name: 'POD',
                    valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } },
                  },
                  {
                    name: 'KEY',
                    valueFrom: { secretKeyRef: { name: 'sec', key: 'k', optional: false } },
                  },
                  {
                    name: 'CPU',
                    valueFrom: { resourceFieldRef: { resource: 'limits.cpu', divisor: '1m' } },
                  },
                ],
                envFrom: [{ prefix: 'P_', configMapRef: { name: 'cm', optional: true } }],
                resources: { limits: { cpu: '500m', memory: '128Mi' }, requests: { cpu: '0' } },
                volumeMounts: [{ name: 'data', mountPath: '/data', readOnly: true }],
                livenessProbe: {
                  httpGet: { path: '/healthz', port: 'http', scheme: 'HTTP' },
                  periodSeconds: 10,
                },
                readinessProbe: { tcpSocket: { port: 8080 }, initialDelaySeconds: 2 },
                startupProbe: { exec: { command: ['true'] }, failureThreshold: 30 },
                lifecycle: { preStop: { sleep: { seconds: 5 } } },
                securityContext: {
                  runAsUser: 0,
                  runAsNonRoot: false,
                  capabilities: { drop: ['ALL'] },
                  seccompProfile: { type: 'RuntimeDefault' },
                },
              },
            ],
            volumes: [
              { name: 'data', persistentVolumeClaim: { claimName: 'pvc' } },
              { name: 'tmp', emptyDir: { medium: 'Memory', sizeLimit: '1Gi' } },
              {
                name: 'cfg',
                configMap: {
                  name: 'cm',
                  items: [{ key: 'a', path: 'a.txt', mode: 0 }],
                  defaultMode: 420,
                },
              },
              { name: 'sec', secret: { secretName: 's', optional: false } },
              { name: 'host', hostPath: { path: '/var/log', type: '' } },
              {
                name: 'proj',
                projected: {
                  sources: [
                    {
                      serviceAccountToken: {
                        audience: 'api',
                        expirationSeconds: 3600,
                        path: 'token',
                      },
                    },
                    {
                      downwardAPI: {
                        items: [{ path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } }],
                      },
                    },
                  ],
                },
              },
            ],
            tolerations: [
              { key: 'k', operator: 'Exists', effect: 'NoSchedule', tolerationSeconds: 0 },
            ],
            affinity: {
              nodeAffinity: {
                requiredDuringSchedulingIgnoredDuringExecution: {
                  nodeSelectorTerms: [
                    { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] },
                  ],
                },
              },
              podAntiAffinity: {
                preferredDuringSchedulingIgnoredDuringExecution: [
                  {
                    weight: 100,
                    podAffinityTerm: {
                      labelSelector: { matchLabels: { app: 'web' } },
                      topologyKey: 'kubernetes.io/hostname',
                    },
                  },
                ],
              },
            },
            securityContext: {
              fsGroup: 2000,
              sysctls: [{ name: 'net.core.somaxconn', value: '1024' }],
            },
            terminationGracePeriodSeconds: 30,
            automountServiceAccountToken: false,
            dnsPolicy: 'ClusterFirst',
            nodeSelector: { disk: 'ssd' },
          },
        },
        strategy: {
          type: 'RollingUpdate',
          rollingUpdate: { maxUnavailable: 0, maxSurge: '25%' },
        },
        revisionHistoryLimit: 0,
        paused: true,
      },
    });
  });

  it('SelfSubjectAccessReview, SubjectAccessReview with extra, SelfSubjectRulesReview', () => {
    roundTrip({
      kind: 'SelfSubjectAccessReview',
      apiVersion: 'authorization.k8s.io/v1',
      metadata: {},
      spec: {
        resourceAttributes: {
          namespace: 'ns',
          verb: 'create',
          group: 'apps',
          resource: 'deployments',
          subresource: 'scale',
        },
      },
      status: { allowed: false },
    });
    roundTrip({
      kind: 'SubjectAccessReview',
      apiVersion: 'authorization.k8s.io/v1',
      metadata: {},
      spec: {
        nonResourceAttributes: { path: '/healthz', verb: 'get' },
        user: 'alice',
        groups: ['devs'],
        extra: { scopes: ['a', 'b'], none: null },
        uid: '1',
      },
      status: { allowed: true, reason: 'ok' },
    });
    roundTrip({
      kind: 'SelfSubjectRulesReview',
      apiVersion: 'authorization.k8s.io/v1',
      metadata: {},
      spec: { namespace: 'default' },
      status: {
        resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
        nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/api'] }],
        incomplete: false,
      },
    });
  });

  it('RBAC kinds', () => {
    roundTrip({
      kind: 'RoleBinding',
      apiVersion: 'rbac.authorization.k8s.io/v1',
      metadata: { name: 'rb', namespace: 'ns' },
      subjects: [{ kind: 'ServiceAccount', name: 'sa', namespace: 'ns' }],
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
    });
    roundTrip({
      kind: 'ClusterRole',
      apiVersion: 'rbac.authorization.k8s.io/v1',
      metadata: { name: 'agg' },
      aggregationRule: {
        clusterRoleSelectors: [{ matchLabels: { 'rbac.example.com/aggregate': 'true' } }],
      },
    });
  });

  it('Job, CronJob, PDB, Ingress, ResourceQuota, Service', () => {
    const template = {
      spec: {
        containers: [{ name: 'c', image: 'busybox', resources: {} }],
        restartPolicy: 'Never',
      },
    };
    roundTrip({
      kind: 'CronJob',
      apiVersion: 'batch/v1',
      metadata: { name: 'cj' },
      spec: {
        schedule: '@hourly',
        timeZone: 'Etc/UTC',
        concurrencyPolicy: 'Forbid',
        suspend: false,
        jobTemplate: {
          spec: {
            parallelism: 1,
            completions: 0,
            backoffLimit: 0,
            ttlSecondsAfterFinished: 60,
            template,
          },
        },
        successfulJobsHistoryLimit: 0,
      },
      status: { lastScheduleTime: '2020-02-29T23:59:59Z' },
    });
    roundTrip({
      kind: 'PodDisruptionBudget',
      apiVersion: 'policy/v1',
      metadata: { name: 'pdb' },
      spec: { maxUnavailable: 1, selector: {}, unhealthyPodEvictionPolicy: 'AlwaysAllow' },
    });
    roundTrip({
      kind: 'Ingress',
      apiVersion: 'networking.k8s.io/v1',
      metadata: { name: 'ing' },
      spec: {
        defaultBackend: { resource: { apiGroup: 'k8s.example.com', kind: 'Bucket', name: 'b' } },
        rules: [
          {
            host: 'a.example.com',
            http: {
              paths: [
                {
                  path: '/',
                  pathType: 'Exact',
                  backend: { service: { name: 's', port: { name: 'http' } } },
                },
              ],
            },
          },
        ],
      },
    });
    roundTrip({
      kind: 'ResourceQuota',
      apiVersion: 'v1',
      metadata: { name: 'q' },
      spec: {
        hard: { 'requests.cpu': '1500m', pods: '10' },
        scopeSelector: {
          matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['high'] }],
        },
      },
    });
    roundTrip({
      kind: 'Service',
      apiVersion: 'v1',
      metadata: { name: 'svc' },
      spec: {
        ports: [{ name: 'https', protocol: 'TCP', port: 443, targetPort: 8443, nodePort: 30443 }],
        selector: { app: 'web' },
        clusterIP: 'None',
        type: 'NodePort',
        sessionAffinity: 'ClientIP',
        sessionAffinityConfig: { clientIP: { timeoutSeconds: 0 } },
        ipFamilies: ['IPv4', 'IPv6'],
        ipFamilyPolicy: 'PreferDualStack',
        allocateLoadBalancerNodePorts: false,
      },
      status: { loadBalancer: {} },
    });
  });

  it('Lease with MicroTime, PriorityClass, ControllerRevision RawExtension, Eviction, DeleteOptions', () => {
    roundTrip({
      kind: 'Lease',
      apiVersion: 'coordination.k8s.io/v1',
      metadata: { name: 'leader', namespace: 'kube-system' },
      spec: {
        holderIdentity: 'node-1',
        leaseDurationSeconds: 15,
        acquireTime: '2024-01-02T03:04:05.678901Z',
        renewTime: '1970-01-01T00:00:00.000000Z',
        leaseTransitions: 0,
      },
    });
    roundTrip({
      kind: 'PriorityClass',
      apiVersion: 'scheduling.k8s.io/v1',
      metadata: { name: 'zero' },
      value: 0,
      globalDefault: true,
    });
    roundTrip({
      kind: 'ControllerRevision',
      apiVersion: 'apps/v1',
      metadata: { name: 'rev-1' },
      data: {
        spec: { template: { metadata: { labels: { a: 'b' } } } },
        list: [1, 'two', null, true],
      },
      revision: 7,
    });
    roundTrip({
      kind: 'Eviction',
      apiVersion: 'policy/v1',
      metadata: { name: 'p', namespace: 'ns' },
      deleteOptions: {
        gracePeriodSeconds: 0,
        preconditions: { uid: 'u', resourceVersion: '' },
        dryRun: ['All'],
      },
    });
    roundTrip({
      kind: 'DeleteOptions',
      apiVersion: 'meta.k8s.io/v1',
      propagationPolicy: 'Foreground',
      orphanDependents: false,
    });
  });

  it('HorizontalPodAutoscaler and TokenRequest', () => {
    roundTrip({
      kind: 'HorizontalPodAutoscaler',
      apiVersion: 'autoscaling/v1',
      metadata: { name: 'h' },
      spec: {
        scaleTargetRef: { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' },
        minReplicas: 1,
        maxReplicas: 5,
      },
    });
    roundTrip({
      kind: 'TokenRequest',
      apiVersion: 'authentication.k8s.io/v1',
      metadata: {},
      spec: {
        audiences: ['api'],
        expirationSeconds: 600,
        boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'p', uid: 'x' },
      },
      status: { token: '', expirationTimestamp: null },
    });
  });

  it('fields added since Kubernetes 1.32, from the vendored 1.37 definitions', () => {
    roundTrip({
      kind: 'Pod',
      apiVersion: 'v1',
      metadata: { name: 'p', creationTimestamp: null },
      spec: {
        hostnameOverride: 'custom-host',
        containers: [
          {
            name: 'c',
            image: 'nginx',
            restartPolicy: 'Never',
            restartPolicyRules: [
              { action: 'Restart', exitCodes: { operator: 'In', values: [42] } },
            ],
            lifecycle: { stopSignal: 'SIGUSR1' },
            resources: {},
          },
        ],
      },
      status: { observedGeneration: 2 },
    });
    roundTrip({
      kind: 'Deployment',
      apiVersion: 'apps/v1',
      metadata: { name: 'web', creationTimestamp: null },
      spec: {
        selector: {},
        template: {
          metadata: { creationTimestamp: null },
          spec: { containers: [{ name: 'web', image: 'nginx' }] },
        },
        strategy: {},
      },
      status: { replicas: 1, terminatingReplicas: 0 },
    });
  });
});

describe('decodeKubernetesProtobuf rejections', () => {
  const configMap = kubectlFixtures[0];
  if (configMap === undefined) throw new Error('no fixtures');
  const valid = hex(configMap.protobufHex);

  it('names an unknown apiVersion/kind', () => {
    expect(rejection(envelope('example.com/v1', 'Widget', new Uint8Array(0)))).toBe(
      'cannot decode the protobuf request body: this server has no protobuf schema for Widget (apiVersion example.com/v1); send the request body as JSON instead (Content-Type: application/json)',
    );
    expect(rejection(envelope('apps/v1', 'ConfigMap', new Uint8Array(0)))).toContain(
      'ConfigMap (apiVersion apps/v1)',
    );
  });

  it('names the kind, message and field number of an unknown field', () => {
    const container = new WireWriter().stringField(1, 'c').stringField(99, 'future').finish();
    const raw = new WireWriter()
      .bytesField(2, new WireWriter().bytesField(2, container).finish())
      .finish();
    expect(rejection(envelope('v1', 'Pod', raw))).toBe(
      'cannot decode the protobuf request body: Pod (apiVersion v1): message k8s.io.api.core.v1.Container has field number 99, which this server does not know; send the request body as JSON instead (Content-Type: application/json)',
    );
  });

  it('rejects a wrong wire type, bad UTF-8, huge int64, bad IntOrString, non-JSON RawExtension', () => {
    expect(
      rejection(envelope('v1', 'ConfigMap', new WireWriter().varintField(1, 1).finish())),
    ).toContain('ConfigMap.metadata has wire type 0, expected 2');
    const badName = new WireWriter()
      .bytesField(1, new WireWriter().bytesField(1, [0xc3, 0x28]).finish())
      .finish();
    expect(rejection(envelope('v1', 'ConfigMap', badName))).toContain('not valid UTF-8');
    const huge = new WireWriter()
      .bytesField(1, new WireWriter().varintField(7, 2n ** 60n).finish())
      .finish();
    expect(rejection(envelope('v1', 'ConfigMap', huge))).toContain('1152921504606846976 is beyond');
    const pdbSpec = new WireWriter()
      .bytesField(1, new WireWriter().varintField(1, 2).finish())
      .finish();
    expect(
      rejection(
        envelope(
          'policy/v1',
          'PodDisruptionBudget',
          new WireWriter().bytesField(2, pdbSpec).finish(),
        ),
      ),
    ).toContain('IntOrString type 2');
    const revision = new WireWriter()
      .bytesField(2, new WireWriter().stringField(1, '{nope').finish())
      .finish();
    expect(rejection(envelope('apps/v1', 'ControllerRevision', revision))).toContain(
      'does not hold JSON',
    );
    const quota = new WireWriter()
      .bytesField(
        2,
        new WireWriter()
          .bytesField(
            1,
            new WireWriter()
              .stringField(1, 'cpu')
              .bytesField(2, new WireWriter().stringField(1, '').finish())
              .finish(),
          )
          .finish(),
      )
      .finish();
    expect(rejection(envelope('v1', 'ResourceQuota', quota))).toContain('empty quantity string');
  });

  it('rejects a missing prefix, a missing kind, compression and foreign envelopes', () => {
    expect(rejection(Buffer.from('{"kind":"ConfigMap"}'))).toContain(
      'does not start with the Kubernetes protobuf prefix',
    );
    expect(rejection(Buffer.from('k8s'))).toContain('prefix');
    expect(rejection(envelope('v1', '', new Uint8Array(0)))).toContain('names no kind');
    expect(rejection(envelope('', 'Pod', new Uint8Array(0)))).toContain('names no apiVersion');
    expect(
      rejection(envelope('v1', 'Pod', new Uint8Array(0), (w) => w.stringField(3, 'gzip'))),
    ).toContain('content encoding "gzip"');
    expect(
      rejection(
        envelope('v1', 'Pod', new Uint8Array(0), (w) => w.stringField(4, 'application/json')),
      ),
    ).toContain('content type "application/json"');
    expect(
      rejection(envelope('v1', 'Pod', new Uint8Array(0), (w) => w.stringField(5, 'x'))),
    ).toContain('runtime.Unknown has field number 5');
  });

  it('rejects every truncation of a real body', () => {
    for (let length = 0; length < valid.length; length++) {
      const body = valid.subarray(0, length);
      let decoded: Record<string, unknown> | undefined;
      try {
        decoded = decodeKubernetesProtobuf(body);
      } catch (error) {
        expect(StatusError.isInstance(error) && error.code === 400).toBe(true);
      }
      // A cut at a field boundary of the envelope leaves valid protobuf: before `raw` (an object
      // with no fields) or before the trailing empty contentEncoding/contentType.
      if (decoded !== undefined) {
        expect([configMap.json, { kind: 'ConfigMap', apiVersion: 'v1' }]).toContainEqual(decoded);
      }
    }
    expect(rejection(valid.subarray(0, 30))).toContain('malformed protobuf: truncated');
  });

  it('throws only 400 StatusErrors on random and mutated bytes', () => {
    let seed = 0x2545f491;
    const random = (): number => {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return (seed >>> 0) / 2 ** 32;
    };
    const bodies = kubectlFixtures.map((f) => hex(f.protobufHex));
    let decodedCount = 0;
    for (let round = 0; round < 600; round++) {
      let body: Buffer;
      if (round % 3 === 0) {
        body = Buffer.from(
          Array.from({ length: Math.floor(random() * 64) }, () => Math.floor(random() * 256)),
        );
        if (round % 2 === 0) body = Buffer.concat([Buffer.from('k8s\0', 'latin1'), body]);
      } else {
        const base = bodies[Math.floor(random() * bodies.length)] ?? valid;
        body = Buffer.from(base);
        const flips = 1 + Math.floor(random() * 4);
        for (let i = 0; i < flips; i++) {
          const at = 4 + Math.floor(random() * (body.length - 4));
          body[at] = Math.floor(random() * 256);
        }
      }
      try {
        const result = decodeKubernetesProtobuf(body);
        expect(typeof result.kind).toBe('string');
        decodedCount++;
      } catch (error) {
        expect(StatusError.isInstance(error), String(error)).toBe(true);
        expect((error as StatusError).code).toBe(400);
      }
    }
    expect(decodedCount).toBeLessThan(600);
  });
});
