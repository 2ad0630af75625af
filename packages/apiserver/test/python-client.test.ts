import { describe, expect, it } from 'vitest';
import { pythonClientSuite } from './python-client-suite.js';

// The official Python client spells booleans the Python way (watch=True), which
// kube-apiserver reads as true.
const suite = pythonClientSuite('python-client');

describe('the official Python client', () => {
  it("lists, watches with watch=True, and gets kube's 400 for a wrong type", async () => {
    const result = (await suite.runScript('watch_client.py')) as Record<string, unknown>;
    expect(result.listed).toEqual(['from-python']);
    expect(result.events).toEqual([
      ['ADDED', 'from-python'],
      ['MODIFIED', 'from-python'],
    ]);
    expect(result.refused).toEqual({
      status: 400,
      message:
        'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal string into Go struct field ObjectMeta.metadata.labels of type map[string]string',
    });
    // The refused create stored nothing; the watched object holds the patch.
    const server = suite.server();
    expect(
      server.resources.get(server.registry.find('', 'v1', 'configmaps')!, 'default', 'from-python')
        .object.data,
    ).toEqual({ a: '2' });
    expect(server.store.list('/configmaps').map((s) => s.object.metadata?.name)).not.toContain(
      'bad',
    );
  });
});
