import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiServer } from '../src/index.js';

// A client written in another language: the official Python client, from Debian's
// python3-kubernetes (scripts/ensure-python-kubernetes.sh installs it for scripts/test.sh).
// It spells booleans the Python way (watch=True), which kube-apiserver reads as true.
const run = promisify(execFile);
const python = process.env.OPS_PYTHON ?? '/usr/bin/python3';
const script = fileURLToPath(new URL('./python/watch_client.py', import.meta.url));
let server: ApiServer;
let dir: string;

beforeAll(async () => {
  server = await ApiServer.start({ cluster: false });
  dir = await mkdtemp(join(tmpdir(), 'python-client-'));
});
afterAll(async () => {
  await server?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the official Python client', () => {
  it("lists, watches with watch=True, and gets kube's 400 for a wrong type", async () => {
    // Fails (never skips) where the client is missing, saying how to install it.
    const installed = await run(python, ['-c', 'import kubernetes']).then(
      () => true,
      () => false,
    );
    if (!installed)
      throw new Error(
        `${python} cannot import kubernetes: install Debian's python3-kubernetes (sudo apt-get install python3-kubernetes; scripts/test.sh does it through scripts/ensure-python-kubernetes.sh) or set OPS_PYTHON to a python3 with the kubernetes package`,
      );
    const kubeconfig = join(dir, 'kubeconfig');
    await server.writeKubeconfig(kubeconfig);
    const { stdout } = await run(python, [script, kubeconfig], { timeout: 30_000 });
    const result = JSON.parse(stdout);
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
    expect(
      server.resources.get(server.registry.find('', 'v1', 'configmaps')!, 'default', 'from-python')
        .object.data,
    ).toEqual({ a: '2' });
    expect(server.store.list('/configmaps').map((s) => s.object.metadata?.name)).not.toContain(
      'bad',
    );
  });
});
