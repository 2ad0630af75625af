import { afterEach, describe, expect, it } from 'vitest';
import { LocalBenchServer } from './local-bench-server.js';
import {
  type ObjectShape,
  objectShapes,
  shapeCreateBody,
  shapeManagedFields,
  shapeManifest,
  shapePlural,
} from './object-shapes.js';
import { podStatus } from './pod-fixture.js';
import { RawHttp } from './raw-http.js';
import { withoutWriteStamps } from './without-write-stamps.js';

const servers: LocalBenchServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.stop()));
});

interface Stored {
  metadata: {
    name: string;
    uid?: string;
    resourceVersion?: string;
    creationTimestamp?: string;
    managedFields?: Array<{ time?: string; manager?: string }>;
  };
}

/**
 * Creates object `index` of `shape` with HTTP requests as the bench server's seeding writes
 * it: a create, then a Pod's status (PUT) or the managed-fields shape's managedFields (a
 * replace: a create drops them).
 */
async function createOverHttp(http: RawHttp, shape: ObjectShape, index: number): Promise<void> {
  const path = `/api/v1/namespaces/bench/${shapePlural(shape)}`;
  await http.send('POST', '/api/v1/namespaces', { metadata: { name: 'bench' } });
  const created = (await http.send('POST', path, shapeCreateBody(shape, 'bench', index))) as Stored;
  if (shape === 'configmaps') return;
  if (shape === 'pods') {
    await http.send('PUT', `${path}/${created.metadata.name}/status`, {
      ...created,
      status: podStatus(index),
    });
    return;
  }
  await http.send('PUT', `${path}/${created.metadata.name}`, {
    ...created,
    metadata: { ...created.metadata, managedFields: shapeManagedFields(shape, 'bench', index) },
  });
}

describe('bulk seeding of the local bench server', () => {
  it.each(objectShapes)(
    'stores %s objects byte for byte as HTTP creates do, but for uid, resourceVersion and times',
    async (shape) => {
      const [seeded, created] = await Promise.all([
        LocalBenchServer.start(),
        LocalBenchServer.start(),
      ]);
      servers.push(seeded, created);
      // Objects 0 and 1 go through the write path; 2 to 5 straight into the store.
      const result = await seeded.seedShape(shape, 'bench', 0, 6);
      expect(result.managedFieldsKept).toBe(true);
      const viaApi = new RawHttp(created);
      await createOverHttp(viaApi, shape, 4);
      const name = (shapeManifest(shape, 'bench', 4).metadata as { name: string }).name;
      const path = `/api/v1/namespaces/bench/${shapePlural(shape)}/${name}`;
      const viaSeed = new RawHttp(seeded);
      const bulk = JSON.parse((await viaSeed.get(path)).toString()) as Stored;
      const api = JSON.parse((await viaApi.get(path)).toString()) as Stored;
      expect(withoutWriteStamps(bulk)).toBe(withoutWriteStamps(api));
      if (shape === 'managed-fields')
        // As kube-apiserver orders them: Apply before Update, then by time, then by manager.
        expect((bulk.metadata.managedFields ?? []).map((entry) => entry.manager)).toEqual([
          'storefront-controller',
          'helm',
          'kubectl-client-side-apply',
        ]);
      // The parts blanked above are the server's own: a fresh uid, the store's revision, now.
      expect(bulk.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
      expect(bulk.metadata.creationTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      const list = JSON.parse(
        (await viaSeed.get(`/api/v1/namespaces/bench/${shapePlural(shape)}`)).toString(),
      ) as { items: Stored[] };
      expect(list.items).toHaveLength(6);
      expect(new Set(list.items.map((item) => item.metadata.uid)).size).toBe(6);
      expect(new Set(list.items.map((item) => item.metadata.resourceVersion)).size).toBe(6);
      viaSeed.close();
      viaApi.close();
    },
  );
});
