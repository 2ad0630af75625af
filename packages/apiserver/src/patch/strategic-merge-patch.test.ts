import { describe, expect, it } from 'vitest';
import { StatusError } from '../api/status-error.js';
import { strategicSchemaFor } from './builtin-schemas.js';
import type { JsonObject } from './json-value.js';
import { applyStrategicMergePatch } from './strategic-merge-patch.js';
import type { StrategicSchema } from './strategic-schema.js';

function statusOf(run: () => unknown): StatusError {
  try {
    run();
  } catch (error) {
    if (StatusError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a StatusError');
}

function schemaOf(apiVersion: string, kind: string): StrategicSchema {
  const schema = strategicSchemaFor(apiVersion, kind);
  if (schema === undefined) throw new Error(`no schema for ${apiVersion}/${kind}`);
  return schema;
}

const podSchema = schemaOf('v1', 'Pod');
const deploymentSchema = schemaOf('apps/v1', 'Deployment');

const pod = (): JsonObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name: 'web',
    namespace: 'default',
    labels: { app: 'web' },
    finalizers: ['example.com/a', 'example.com/b'],
    ownerReferences: [
      { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-1', uid: 'u1', controller: true },
    ],
  },
  spec: {
    containers: [
      {
        name: 'app',
        image: 'nginx:1.22',
        ports: [
          { containerPort: 80, protocol: 'TCP' },
          { containerPort: 443, protocol: 'TCP' },
        ],
        env: [
          { name: 'A', value: '1' },
          { name: 'B', value: '2' },
        ],
        volumeMounts: [{ name: 'data', mountPath: '/data' }],
      },
      { name: 'sidecar', image: 'envoy:1' },
    ],
    volumes: [
      { name: 'data', emptyDir: {} },
      { name: 'config', configMap: { name: 'web-config' } },
    ],
    tolerations: [{ key: 'a', operator: 'Exists' }],
  },
});

/** A schema like the one of kube-apiserver's strategic merge patch test fixtures. */
const fixtureSchema: StrategicSchema = {
  fields: {
    mergingList: { patchStrategy: 'merge', patchMergeKey: 'name' },
    mergingIntList: { patchStrategy: 'merge' },
    nonMergingList: {},
  },
};

describe('applyStrategicMergePatch on a Pod', () => {
  it('merges containers by name and leaves the others alone', () => {
    const result = applyStrategicMergePatch(
      pod(),
      { spec: { containers: [{ name: 'app', image: 'nginx:1.23' }] } },
      podSchema,
    );
    const expected = pod();
    (expected.spec as { containers: { image: string }[] }).containers[0]!.image = 'nginx:1.23';
    expect(result).toEqual(expected);
  });

  it('puts a new container before the live ones, as kube-apiserver does', () => {
    const result = applyStrategicMergePatch(
      pod(),
      { spec: { containers: [{ name: 'debug', image: 'busybox' }] } },
      podSchema,
    );
    const names = (result.spec as { containers: { name: string }[] }).containers.map(
      (container) => container.name,
    );
    expect(names).toEqual(['debug', 'app', 'sidecar']);
  });

  it('merges env by name and ports by containerPort inside a container', () => {
    const result = applyStrategicMergePatch(
      pod(),
      {
        spec: {
          containers: [
            {
              name: 'app',
              env: [
                { name: 'B', value: 'two' },
                { name: 'C', value: '3' },
              ],
              ports: [{ containerPort: 443, name: 'https' }],
            },
          ],
        },
      },
      podSchema,
    );
    const app = (result.spec as { containers: JsonObject[] }).containers[0];
    expect(app?.env).toEqual([
      { name: 'A', value: '1' },
      { name: 'B', value: 'two' },
      { name: 'C', value: '3' },
    ]);
    expect(app?.ports).toEqual([
      { containerPort: 80, protocol: 'TCP' },
      { containerPort: 443, protocol: 'TCP', name: 'https' },
    ]);
    expect(app?.volumeMounts).toEqual([{ name: 'data', mountPath: '/data' }]);
  });

  it('merges volumes by name and replaces tolerations, which have no strategy', () => {
    const result = applyStrategicMergePatch(
      pod(),
      {
        spec: {
          volumes: [{ name: 'config', configMap: { name: 'web-config-2' } }],
          tolerations: [{ key: 'b', operator: 'Exists' }],
        },
      },
      podSchema,
    );
    const spec = result.spec as JsonObject;
    expect(spec.volumes).toEqual([
      { name: 'data', emptyDir: {} },
      { name: 'config', configMap: { name: 'web-config-2' } },
    ]);
    expect(spec.tolerations).toEqual([{ key: 'b', operator: 'Exists' }]);
  });

  it('deletes a list item with $patch: delete', () => {
    const result = applyStrategicMergePatch(
      pod(),
      {
        spec: {
          containers: [
            { name: 'sidecar', $patch: 'delete' },
            { name: 'app', env: [{ name: 'A', $patch: 'delete' }] },
          ],
          volumes: [{ name: 'missing', $patch: 'delete' }],
        },
      },
      podSchema,
    );
    const spec = result.spec as { containers: JsonObject[]; volumes: unknown[] };
    expect(spec.containers.map((container) => container.name)).toEqual(['app']);
    expect(spec.containers[0]?.env).toEqual([{ name: 'B', value: '2' }]);
    expect(spec.volumes).toHaveLength(2);
  });

  it('replaces a merging list with $patch: replace', () => {
    const result = applyStrategicMergePatch(
      pod(),
      { spec: { containers: [{ name: 'only', image: 'alpine' }, { $patch: 'replace' }] } },
      podSchema,
    );
    expect((result.spec as JsonObject).containers).toEqual([{ name: 'only', image: 'alpine' }]);
  });

  it('replaces an object with $patch: replace and empties one with $patch: delete', () => {
    const result = applyStrategicMergePatch(
      pod(),
      {
        metadata: { labels: { tier: 'front', $patch: 'replace' } },
        spec: { securityContext: { $patch: 'delete' } },
      },
      podSchema,
    );
    expect((result.metadata as JsonObject).labels).toEqual({ tier: 'front' });
    expect((result.spec as JsonObject).securityContext).toBeUndefined();

    const emptied = applyStrategicMergePatch(
      { spec: { securityContext: { runAsUser: 1000 } } },
      { spec: { securityContext: { $patch: 'delete' } } },
      podSchema,
    );
    expect(emptied).toEqual({ spec: { securityContext: {} } });
  });

  it('clears the fields $retainKeys does not name', () => {
    const result = applyStrategicMergePatch(
      pod(),
      {
        spec: {
          volumes: [
            {
              name: 'config',
              $retainKeys: ['name', 'secret'],
              secret: { secretName: 'web-secret' },
            },
          ],
        },
      },
      podSchema,
    );
    expect((result.spec as JsonObject).volumes).toEqual([
      { name: 'data', emptyDir: {} },
      { name: 'config', secret: { secretName: 'web-secret' } },
    ]);
  });

  it('removes finalizers with $deleteFromPrimitiveList and merges them as a set', () => {
    const deleted = applyStrategicMergePatch(
      pod(),
      { metadata: { '$deleteFromPrimitiveList/finalizers': ['example.com/a', 'absent'] } },
      podSchema,
    );
    expect((deleted.metadata as JsonObject).finalizers).toEqual(['example.com/b']);

    const added = applyStrategicMergePatch(
      pod(),
      { metadata: { finalizers: ['example.com/b', 'example.com/c'] } },
      podSchema,
    );
    expect((added.metadata as JsonObject).finalizers).toEqual([
      'example.com/a',
      'example.com/b',
      'example.com/c',
    ]);
  });

  it('merges ownerReferences by uid', () => {
    const result = applyStrategicMergePatch(
      pod(),
      {
        metadata: {
          ownerReferences: [
            { uid: 'u1', blockOwnerDeletion: true },
            { apiVersion: 'v1', kind: 'ConfigMap', name: 'cm', uid: 'u2' },
          ],
        },
      },
      podSchema,
    );
    expect((result.metadata as JsonObject).ownerReferences).toEqual([
      {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        name: 'web-1',
        uid: 'u1',
        controller: true,
        blockOwnerDeletion: true,
      },
      { apiVersion: 'v1', kind: 'ConfigMap', name: 'cm', uid: 'u2' },
    ]);
  });

  it('deletes fields set to null and drops nulls from values it adds', () => {
    const result = applyStrategicMergePatch(
      pod(),
      {
        metadata: { labels: null, annotations: { a: 'x', b: null } },
        spec: { containers: [{ name: 'extra', image: 'x', command: null }] },
      },
      podSchema,
    );
    const metadata = result.metadata as JsonObject;
    expect(metadata.labels).toBeUndefined();
    expect(metadata.annotations).toEqual({ a: 'x' });
    expect((result.spec as { containers: JsonObject[] }).containers[0]).toEqual({
      name: 'extra',
      image: 'x',
    });
  });

  it('patches fields the schema does not describe like a merge patch', () => {
    const result = applyStrategicMergePatch(
      { spec: { custom: { list: [1, 2], map: { a: 1, b: 2 } } } },
      { spec: { custom: { list: [3], map: { b: null, c: 3 } } } },
      podSchema,
    );
    expect(result).toEqual({ spec: { custom: { list: [3], map: { a: 1, c: 3 } } } });
  });

  it('modifies neither input and treats a null patch as no change', () => {
    const document = pod();
    const patch = {
      spec: { containers: [{ name: 'app', env: [{ name: 'A', $patch: 'delete' }] }] },
    };
    const snapshot = structuredClone({ document, patch });
    applyStrategicMergePatch(document, patch, podSchema);
    expect({ document, patch }).toEqual(snapshot);
    expect(applyStrategicMergePatch(document, null, podSchema)).toEqual(document);
  });
});

describe('applyStrategicMergePatch on a Deployment', () => {
  const deployment = (): JsonObject => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web' },
    spec: {
      replicas: 2,
      template: {
        metadata: { labels: { app: 'web' } },
        spec: {
          containers: [
            { name: 'app', image: 'nginx:1.22', env: [{ name: 'MODE', value: 'prod' }] },
            { name: 'log', image: 'fluent-bit:2' },
          ],
        },
      },
    },
  });

  it('applies the patch kubectl set image sends', () => {
    const result = applyStrategicMergePatch(
      deployment(),
      { spec: { template: { spec: { containers: [{ name: 'app', image: 'nginx:1.23' }] } } } },
      deploymentSchema,
    );
    expect(result).toEqual({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: {
        replicas: 2,
        template: {
          metadata: { labels: { app: 'web' } },
          spec: {
            containers: [
              { name: 'app', image: 'nginx:1.23', env: [{ name: 'MODE', value: 'prod' }] },
              { name: 'log', image: 'fluent-bit:2' },
            ],
          },
        },
      },
    });
  });

  it('applies the patch kubectl rollout restart sends', () => {
    const result = applyStrategicMergePatch(
      deployment(),
      {
        spec: {
          template: {
            metadata: {
              annotations: { 'kubectl.kubernetes.io/restartedAt': '2024-01-01T00:00:00Z' },
            },
          },
        },
      },
      deploymentSchema,
    );
    expect((result.spec as { template: { metadata: JsonObject } }).template.metadata).toEqual({
      labels: { app: 'web' },
      annotations: { 'kubectl.kubernetes.io/restartedAt': '2024-01-01T00:00:00Z' },
    });
  });

  it('orders containers as $setElementOrder says', () => {
    const result = applyStrategicMergePatch(
      deployment(),
      {
        spec: {
          template: {
            spec: {
              '$setElementOrder/containers': [{ name: 'log' }, { name: 'new' }, { name: 'app' }],
              containers: [{ name: 'new', image: 'busybox' }],
            },
          },
        },
      },
      deploymentSchema,
    );
    const containers = (result.spec as { template: { spec: { containers: JsonObject[] } } })
      .template.spec.containers;
    expect(containers.map((container) => container.name)).toEqual(['log', 'new', 'app']);
  });
});

describe('applyStrategicMergePatch on kube-apiserver fixtures', () => {
  it.each([
    {
      description: 'nested patch merge with empty list',
      current: { name: 'hi', mergingList: [{ name: 'hello2' }] },
      patch: {
        '$setElementOrder/mergingList': [{ name: 'hello' }, { name: 'doesntexist' }],
        mergingList: [{ name: 'hello' }],
      },
      result: { name: 'hi', mergingList: [{ name: 'hello' }, { name: 'hello2' }] },
    },
    {
      description: 'add and delete items in lists of scalars',
      current: { mergingIntList: [1, 2, 3, 4] },
      patch: {
        '$setElementOrder/mergingIntList': [1, 2, 4],
        '$deleteFromPrimitiveList/mergingIntList': [3],
      },
      result: { mergingIntList: [1, 2, 4] },
    },
    {
      description: 'merge lists of maps',
      current: {
        mergingList: [
          { name: 1, other: 'a' },
          { name: 2, value: 2, other: 'b' },
        ],
      },
      patch: {
        '$setElementOrder/mergingList': [{ name: 4 }, { name: 1 }, { name: 2 }, { name: 3 }],
        mergingList: [
          { name: 4, value: 4 },
          { name: 3, value: 3 },
        ],
      },
      result: {
        mergingList: [
          { name: 4, value: 4 },
          { name: 1, other: 'a' },
          { name: 2, value: 2, other: 'b' },
          { name: 3, value: 3 },
        ],
      },
    },
    {
      description: 'add field to map in merging list with conflict',
      current: {
        mergingList: [
          { name: 1, other: 'a' },
          { name: 3, value: 2, other: 'b' },
        ],
      },
      patch: {
        '$setElementOrder/mergingList': [{ name: 1 }, { name: 2 }],
        mergingList: [
          { name: 1, value: 1 },
          { name: 2, value: 2 },
        ],
      },
      result: {
        mergingList: [
          { name: 1, other: 'a', value: 1 },
          { name: 2, value: 2 },
          { name: 3, value: 2, other: 'b' },
        ],
      },
    },
    {
      description: 'delete missing map from merging list with conflict',
      current: { mergingList: [{ name: 3, other: 'a' }] },
      patch: {
        '$setElementOrder/mergingList': [{ name: 2 }],
        mergingList: [{ name: 2 }, { name: 1, $patch: 'delete' }],
      },
      result: { mergingList: [{ name: 2 }, { name: 3, other: 'a' }] },
    },
    {
      description: 'add map and delete map from merging list',
      current: { mergingList: [{ name: 1 }, { name: 2, other: 'b' }, { name: 4, other: 'c' }] },
      patch: {
        '$setElementOrder/mergingList': [{ name: 2 }, { name: 3 }],
        mergingList: [{ name: 3 }, { name: 1, $patch: 'delete' }],
      },
      result: { mergingList: [{ name: 2, other: 'b' }, { name: 4, other: 'c' }, { name: 3 }] },
    },
  ])('$description', ({ current, patch, result }) => {
    expect(applyStrategicMergePatch(current, patch, fixtureSchema)).toEqual(result);
  });
});

describe('applyStrategicMergePatch refusals', () => {
  it.each([
    [['a'], 'json: cannot unmarshal array into Go value of type map[string]interface {}'],
    ['a', 'json: cannot unmarshal string into Go value of type map[string]interface {}'],
    [{ $retainKeys: 'name' }, 'invalid patch format of retainKeys'],
    [{ $retainKeys: ['kind'], spec: {} }, 'invalid patch format of retainKeys'],
    [{ $deleteFromPrimitiveList: ['x'] }, 'invalid patch format of primitive list'],
    [
      { metadata: { $deleteFromPrimitiveList: { finalizers: ['x'] } } },
      'invalid patch format of primitive list',
    ],
    [{ $setElementOrder: [] }, 'invalid patch format of setElementOrder list'],
  ])('answers 400 BadRequest to %j', (patch, message) => {
    const error = statusOf(() => applyStrategicMergePatch(pod(), patch, podSchema));
    expect(error.code).toBe(400);
    expect(error.reason).toBe('BadRequest');
    expect(error.message).toBe(message);
  });

  it('answers 422 Invalid to a list of lists', () => {
    const error = statusOf(() =>
      applyStrategicMergePatch(
        { metadata: { finalizers: [] } },
        { metadata: { finalizers: [['x']] } },
        podSchema,
      ),
    );
    expect(error.code).toBe(422);
    expect(error.message).toBe('the server rejected our request due to an error in our request');
  });

  it.each([
    [
      { spec: { containers: [{ image: 'nginx' }] } },
      'map: map[image:nginx] does not contain declared merge key: name',
    ],
    [
      { spec: { containers: [{ image: 'nginx', $patch: 'delete' }] } },
      'map: map[$patch:delete image:nginx] does not contain declared merge key: name',
    ],
    [
      { spec: { containers: [{ name: 'app', $patch: 'merge' }] } },
      'merging lists cannot yet be specified in the patch',
    ],
    [
      { spec: { containers: [{ name: 'app', $patch: 'remove' }] } },
      'unknown patch type: remove in map: map[$patch:remove name:app]',
    ],
    [{ spec: { $patch: 'merge' } }, 'unknown patch type: merge in map: map[$patch:merge]'],
    [{ spec: { $patch: 1 } }, 'unknown patch type: %!s(int64=1) in map: map[$patch:1]'],
    [
      { metadata: { finalizers: [1] } },
      'list element types are not identical: [[example.com/a example.com/b] [1]]',
    ],
    [
      { spec: { containers: ['app'] } },
      'list element types are not identical: [[map[env:[map[name:A value:1] map[name:B value:2]] image:nginx:1.22 name:app ports:[map[containerPort:80 protocol:TCP] map[containerPort:443 protocol:TCP]] volumeMounts:[map[mountPath:/data name:data]]] map[image:envoy:1 name:sidecar]] [app]]',
    ],
    [
      { spec: { '$setElementOrder/containers': 'app' } },
      'expected a []interface {}, but received a string',
    ],
    [
      {
        spec: {
          '$setElementOrder/containers': [{ name: 'app' }],
          containers: [{ name: 'other' }],
        },
      },
      "the order in patch list:\n[map[name:other]]\n doesn't match $setElementOrder list:\n[map[name:app]]",
    ],
  ])('answers 500 with kube-apiserver message to %j', (patch, message) => {
    const error = statusOf(() => applyStrategicMergePatch(pod(), patch, podSchema));
    expect(error.code).toBe(500);
    expect(error.message).toBe(message);
  });

  it('throws nothing but StatusErrors for malformed patches', () => {
    const values = [
      null,
      0,
      1.5,
      'x',
      true,
      [],
      {},
      [1],
      ['x'],
      [{}],
      [null],
      [[1]],
      { name: 'app' },
      { $patch: 'delete' },
      { $patch: 'replace' },
      { $patch: 7 },
      { name: 'app', $patch: 'delete' },
      { $retainKeys: ['name'], name: 'x' },
      { $retainKeys: [{}] },
      [{ name: 'app', $patch: 'replace' }],
      [{ name: { a: 1 } }],
      [{ name: 'app' }, { $patch: 'replace' }, { name: 'x', $patch: 'delete' }],
    ];
    const keys = [
      'containers',
      'volumes',
      'tolerations',
      'finalizers',
      'labels',
      '$setElementOrder/containers',
      '$setElementOrder/finalizers',
      '$deleteFromPrimitiveList/finalizers',
      '$deleteFromPrimitiveList/containers',
      '$retainKeys',
      '$patch',
      'env',
    ];
    let seed = 7;
    const next = (limit: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % limit;
    };
    const pick = <T>(list: T[]): T => list[next(list.length)] as T;
    let failures = 0;
    for (let round = 0; round < 3000; round++) {
      const inner: Record<string, unknown> = {};
      for (let n = 0; n <= next(3); n++) inner[pick(keys)] = structuredClone(pick(values));
      const containers = [{ name: 'app', ...inner }];
      const patch = pick([
        { spec: inner },
        { metadata: inner },
        { spec: { containers } },
        { spec: { containers: [inner] } },
        inner,
      ]);
      try {
        const result = applyStrategicMergePatch(pod(), patch, podSchema);
        expect(typeof result).toBe('object');
      } catch (error) {
        expect(StatusError.isInstance(error), String(error)).toBe(true);
        failures++;
      }
    }
    expect(failures).toBeGreaterThan(0);
  });
});
