import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../src/index.js';
import { startCluster, type TestCluster } from '../cluster.js';

// Deletion semantics through the real kubectl. Garbage collection and namespace deletion are
// kube-controller-manager's work, which only the local server simulates (envtest binaries run
// no controllers), so this suite always uses the local server.
let cluster: TestCluster;
beforeAll(async () => {
  cluster = await startCluster({ controlPlane: 'local' });
});
afterAll(async () => {
  await cluster.stop();
});

const names = async (args: string[]) =>
  (await cluster.kubectl([...args, '-o', 'name'])).split('\n').filter(Boolean);

describe('deletion and garbage collection, through the real kubectl', () => {
  it('cascades in the background by default: the Deployment takes its ReplicaSet and Pods', async () => {
    await cluster.kubectl(['create', 'deployment', 'bg', '--image=nginx', '--replicas=2']);
    await cluster.kubectl(['wait', '--for=condition=Available', 'deployment/bg', '--timeout=20s']);
    expect(await names(['get', 'replicasets', '-l', 'app=bg'])).toHaveLength(1);
    await cluster.kubectl(['delete', 'deployment', 'bg']);
    await eventually(
      async () => (await names(['get', 'replicasets,pods', '-l', 'app=bg'])).length === 0,
    );
  });

  it('orphans dependents with --cascade=orphan', async () => {
    await cluster.kubectl(['create', 'deployment', 'orphaned', '--image=nginx']);
    await cluster.kubectl([
      'wait',
      '--for=condition=Available',
      'deployment/orphaned',
      '--timeout=20s',
    ]);
    await cluster.kubectl(['delete', 'deployment', 'orphaned', '--cascade=orphan']);
    await eventually(
      async () =>
        (await names(['get', 'deployments', '--field-selector', 'metadata.name=orphaned']))
          .length === 0,
    );
    const [replicaSet] = await names(['get', 'replicasets', '-l', 'app=orphaned']);
    expect(replicaSet).toMatch(/^replicaset\.apps\/orphaned-/);
    const owners = await cluster.kubectl([
      'get',
      replicaSet ?? '',
      '-o',
      'jsonpath={.metadata.ownerReferences}',
    ]);
    expect(owners).toBe('');
  });

  it('deletes dependents first with --cascade=foreground', async () => {
    await cluster.kubectl(['create', 'deployment', 'fg', '--image=nginx']);
    await cluster.kubectl(['wait', '--for=condition=Available', 'deployment/fg', '--timeout=20s']);
    await cluster.kubectl([
      'delete',
      'deployment',
      'fg',
      '--cascade=foreground',
      '--wait=true',
      '--timeout=20s',
    ]);
    expect(await names(['get', 'deployments,replicasets,pods', '-l', 'app=fg'])).toEqual([]);
  });

  it('honours finalizers: a deletion waits until the last one is removed', async () => {
    await cluster.kubectl(['create', 'configmap', 'held']);
    await cluster.kubectl([
      'patch',
      'configmap',
      'held',
      '--type=merge',
      '-p',
      '{"metadata":{"finalizers":["example.com/hold"]}}',
    ]);
    await cluster.kubectl(['delete', 'configmap', 'held', '--wait=false']);
    expect(
      await cluster.kubectl([
        'get',
        'configmap',
        'held',
        '-o',
        'jsonpath={.metadata.deletionTimestamp}',
      ]),
    ).not.toBe('');
    await cluster.kubectl([
      'patch',
      'configmap',
      'held',
      '--type=json',
      '-p',
      '[{"op":"remove","path":"/metadata/finalizers"}]',
    ]);
    await expect(cluster.kubectl(['get', 'configmap', 'held'])).rejects.toThrow(
      'configmaps "held" not found',
    );
  });

  it('deletes a namespace with everything in it', async () => {
    await cluster.kubectl(['create', 'namespace', 'doomed']);
    await cluster.kubectl(['create', 'configmap', 'inside', '-n', 'doomed']);
    await cluster.kubectl(['create', 'deployment', 'inside', '--image=nginx', '-n', 'doomed']);
    expect(await cluster.kubectl(['delete', 'namespace', 'doomed', '--timeout=20s'])).toContain(
      'namespace "doomed" deleted',
    );
    await expect(cluster.kubectl(['get', 'namespace', 'doomed'])).rejects.toThrow(
      'namespaces "doomed" not found',
    );
    await expect(cluster.kubectl(['create', 'configmap', 'late', '-n', 'doomed'])).rejects.toThrow(
      /namespaces "doomed" not found/,
    );
  });

  it('deletes a whole collection with --all, and selects by field', async () => {
    for (const name of ['c1', 'c2', 'c3'])
      await cluster.kubectl(['create', 'configmap', name, '-n', 'kube-public']);
    expect(
      await names([
        'get',
        'configmaps',
        '-n',
        'kube-public',
        '--field-selector',
        'metadata.name=c2',
      ]),
    ).toEqual(['configmap/c2']);
    await cluster.kubectl(['delete', 'configmaps', '--all', '-n', 'kube-public']);
    expect(await names(['get', 'configmaps', '-n', 'kube-public'])).toEqual([]);
  });

  it('dry-runs on the server without storing, server-side apply included', async () => {
    expect(await cluster.kubectl(['create', 'configmap', 'dry', '--dry-run=server'])).toContain(
      'configmap/dry created (server dry run)',
    );
    await expect(cluster.kubectl(['get', 'configmap', 'dry'])).rejects.toThrow('not found');
    const manifest =
      '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"ssa","namespace":"default"}}';
    expect(
      await cluster.kubectl(['apply', '--server-side', '--dry-run=server', '-f', '-'], {
        input: manifest,
      }),
    ).toContain('configmap/ssa serverside-applied (server dry run)');
    await expect(cluster.kubectl(['get', 'configmap', 'ssa'])).rejects.toThrow('not found');
  });
});
