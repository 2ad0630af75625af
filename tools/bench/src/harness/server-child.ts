/**
 * The API server child process of the benchmarks: `@ops/apiserver` over plain HTTP with the
 * simulated cluster off (nothing but the benchmark writes), answering {@link ServerCommand}s
 * on the IPC channel. It runs in its own process so that the server's CPU time and heap are
 * not counted against the client library being measured.
 *
 * Every write the server handles is counted (also no-op updates, which change nothing in
 * the store), by namespace and resource, for the zero-writes benchmark.
 */
import { ApiServer } from '@ops/apiserver';
import { bulkSeed } from './bulk-seed.js';
import { configMapManifest } from './config-map-fixture.js';
import { settledHeapUsed } from './gc.js';
import {
  type ObjectShape,
  shapeCreateBody,
  shapeInput,
  shapeManagedFields,
  shapeManagedFieldsKept,
  shapePlural,
} from './object-shapes.js';
import { podStatus } from './pod-fixture.js';
import type {
  ServerAnswers,
  ServerCommand,
  ServerReady,
  ServerReply,
  ServerRequest,
  WriteCounts,
} from './server-protocol.js';

const send = (message: ServerReady | ServerReply): void => {
  process.send?.(message);
};

const server = await ApiServer.start({
  https: false,
  // The simulated cluster (Deployments -> Pods that become ready) only when a benchmark asks.
  cluster: process.env.OPS_BENCH_CLUSTER === '1' ? { podStartDelayMs: 0 } : false,
  historySize: Number(process.env.OPS_BENCH_HISTORY ?? '100000'),
});

const admin = { name: 'admin', groups: ['system:masters', 'system:authenticated'] };
const context = () => ({ user: admin, warnings: [] as string[] });
const resources = server.resources;

const writes: WriteCounts = { total: 0, byResource: {} };
const count = (namespace: string, plural: string): void => {
  writes.total++;
  const key = `${namespace}/${plural}`;
  writes.byResource[key] = (writes.byResource[key] ?? 0) + 1;
};
// Count every write verb at the service the HTTP handlers call.
const { create, update, patch } = resources;
const remove = resources.delete;
resources.create = (type, namespace, ...rest) => {
  count(namespace, type.plural);
  return create.call(resources, type, namespace, ...rest);
};
resources.update = (type, namespace, ...rest) => {
  count(namespace, type.plural);
  return update.call(resources, type, namespace, ...rest);
};
resources.patch = (type, namespace, ...rest) => {
  count(namespace, type.plural);
  return patch.call(resources, type, namespace, ...rest);
};
resources.delete = (type, namespace, ...rest) => {
  count(namespace, type.plural);
  return remove.call(resources, type, namespace, ...rest);
};

function typeOf(group: string, version: string, plural: string) {
  const type = server.registry.find(group, version, plural);
  if (type === undefined) throw new Error(`the server does not serve ${plural}`);
  return type;
}

async function ensureNamespace(name: string): Promise<void> {
  const namespaces = typeOf('', 'v1', 'namespaces');
  if (server.store.get('/namespaces', name) !== undefined) return;
  try {
    await create.call(resources, namespaces, '', { metadata: { name } }, context());
  } catch (error) {
    if ((error as { code?: number }).code !== 409) throw error;
  }
}

async function seedConfigMaps(
  namespace: string,
  prefix: string,
  total: number,
  labels: Record<string, string> | undefined,
): Promise<{ created: number }> {
  await ensureNamespace(namespace);
  const configMaps = typeOf('', 'v1', 'configmaps');
  for (let i = 0; i < total; i++) {
    await create.call(
      resources,
      configMaps,
      namespace,
      configMapManifest(prefix, i, labels),
      context(),
    );
  }
  return { created: total };
}

/**
 * Writes object `index` of `shape` through the API write path: a create, then for a Pod its
 * status and for `managed-fields` a replace that sets the managedFields a create drops.
 */
async function writeShape(shape: ObjectShape, namespace: string, index: number) {
  const type = typeOf('', 'v1', shapePlural(shape));
  const created = await create.call(
    resources,
    type,
    namespace,
    shapeCreateBody(shape, namespace, index),
    context(),
  );
  if (shape === 'configmaps') return created;
  const name = created.metadata?.name ?? '';
  const body =
    shape === 'pods'
      ? { ...created, status: podStatus(index) }
      : {
          ...created,
          metadata: {
            ...created.metadata,
            managedFields: shapeManagedFields(shape, namespace, index),
          },
        };
  return update.call(
    resources,
    type,
    namespace,
    name,
    body,
    shape === 'pods' ? 'status' : '',
    context(),
  );
}

/**
 * Seeds objects of a shape: two through the API write path, the rest carried over from the
 * first straight into the store (see `bulk-seed.ts`), which proves on the second that the
 * carry-over stores what the write path does.
 */
async function seedShape(
  shape: ObjectShape,
  namespace: string,
  from: number,
  total: number,
): Promise<ServerAnswers['seedShape']> {
  await ensureNamespace(namespace);
  const type = typeOf('', 'v1', shapePlural(shape));
  const seeded = await bulkSeed({
    store: server.store,
    resource: `${type.group}/${type.plural}`,
    namespace,
    from,
    count: total,
    input: (index) => shapeInput(shape, namespace, index),
    write: (index) => writeShape(shape, namespace, index),
  });
  const first = seeded.written[0];
  return {
    created: seeded.created,
    managedFieldsKept: shapeManagedFieldsKept(shape, first),
  };
}

async function run(command: ServerCommand): Promise<ServerAnswers[ServerCommand['op']]> {
  switch (command.op) {
    case 'seedPods':
      return seedShape('pods', command.namespace, 0, command.count);
    case 'seedConfigMaps':
      return seedConfigMaps(command.namespace, command.prefix, command.count, command.labels);
    case 'seedShape':
      return seedShape(command.shape, command.namespace, command.from, command.count);
    case 'writes':
      return { total: writes.total, byResource: { ...writes.byResource } };
    case 'revision':
      return { revision: server.store.currentRevision() };
    case 'collectGarbage':
      return { heapUsed: settledHeapUsed() };
    case 'stop':
      await server.stop();
      setImmediate(() => process.exit(0));
      return {};
  }
}

process.on('message', (message: ServerRequest) => {
  run(message).then(
    (result) => send({ id: message.id, ok: true, result }),
    (error: unknown) =>
      send({
        id: message.id,
        ok: false,
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      }),
  );
});
// The parent went away: do not linger.
process.on('disconnect', () => {
  void server.stop().finally(() => process.exit(0));
});

send({ ready: true, url: server.url, kubeconfig: server.kubeconfig() });
