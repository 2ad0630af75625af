import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadManifests, parseManifests } from './load-manifests.js';

describe('manifests', () => {
  it('reads multi-document YAML, JSON and Lists from files and directories', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'envtest-manifests-'));
    await writeFile(
      join(dir, 'a.yaml'),
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\n',
    );
    await writeFile(
      join(dir, 'b.json'),
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'List',
        items: [{ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'c' } }],
      }),
    );
    await writeFile(join(dir, 'notes.txt'), 'ignored');
    const objects = await loadManifests([dir]);
    expect(objects.map((o) => o.metadata?.name)).toEqual(['a', 'b', 'c']);
    expect(await loadManifests([join(dir, 'a.yaml')])).toHaveLength(2);
  });

  it('names the problem: a missing path, bad YAML, a document without kind', async () => {
    await expect(loadManifests(['/no/such/dir'])).rejects.toThrow(
      'manifest path /no/such/dir does not exist',
    );
    await expect(loadManifests(['/no/such/dir'], { ignoreMissing: true })).resolves.toEqual([]);
    expect(() => parseManifests('a: [', 'x.yaml')).toThrow(/x.yaml: document 1 is not valid YAML/);
    expect(() => parseManifests('metadata: {}', 'y.yaml')).toThrow(
      'y.yaml: document 1 has no apiVersion or kind',
    );
    expect(() => parseManifests('- 1', 'z.yaml')).toThrow('z.yaml: document 1 is not an object');
  });
});
