import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { portTakenLine } from './cluster-control-plane.js';

// Whether a cluster's start lost the race for one of its ports, as its components' logs say
// (the start is then made again with fresh ports). The start itself runs in test/cluster.
describe('portTakenLine', () => {
  let clusterDir: string;
  beforeEach(async () => {
    clusterDir = await mkdtemp(join(tmpdir(), 'cluster-logs-'));
  });
  afterEach(async () => {
    await rm(clusterDir, { recursive: true, force: true });
  });

  it('names the component and its line when one could not bind its port', async () => {
    await mkdir(join(clusterDir, 'logs'));
    await writeFile(join(clusterDir, 'logs', 'etcd.log'), '{"msg":"ready to serve"}\n');
    await writeFile(
      join(clusterDir, 'logs', 'kwok-controller.log'),
      '{"msg":"Watch all nodes"}\n{"msg":"Failed to run server","err":"listen tcp 127.0.0.1:44235: bind: address already in use"}\n',
    );
    expect(await portTakenLine(clusterDir)).toBe(
      'kwok-controller.log: {"msg":"Failed to run server","err":"listen tcp 127.0.0.1:44235: bind: address already in use"}',
    );
  });

  it('is undefined while no component says so, or before any logs exist', async () => {
    expect(await portTakenLine(clusterDir)).toBeUndefined();
    await mkdir(join(clusterDir, 'logs'));
    await writeFile(join(clusterDir, 'logs', 'kube-apiserver.log'), 'Serving securely\n');
    expect(await portTakenLine(clusterDir)).toBeUndefined();
  });
});
