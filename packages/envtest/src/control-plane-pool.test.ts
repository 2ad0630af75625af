import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  acquirePooledControlPlane,
  type ControlPlanePool,
  controlPlanePoolVariable,
  startControlPlanePool,
} from './control-plane-pool.js';

// The pool's plumbing, without binaries (a directory without etcd): what it refuses and what
// it says. test/binaries/control-plane-pool.test.ts runs its control planes.
describe('control plane pool (no binaries)', () => {
  let directory: string;
  let pool: ControlPlanePool;
  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'pool-test-'));
    pool = await startControlPlanePool({ assetsDirectory: directory, publish: false });
  });
  afterEach(async () => {
    await pool.close();
    await rm(directory, { recursive: true, force: true });
  });

  it('leaves a request for another directory to the caller', async () => {
    await expect(acquirePooledControlPlane(pool.url, '/elsewhere')).resolves.toBeUndefined();
    expect(pool.leased).toBe(0);
  });

  it("fails a request with the plane's own start error", async () => {
    await expect(acquirePooledControlPlane(pool.url, directory)).rejects.toThrow(
      /answered \/acquire with 500: .*has no etcd/,
    );
    expect(pool.leased).toBe(0);
  });

  it('names the variable when the pool does not answer', async () => {
    await pool.close();
    await expect(acquirePooledControlPlane(pool.url, directory)).rejects.toThrow(
      `the control plane pool at ${pool.url} (${controlPlanePoolVariable}) does not answer`,
    );
  });

  it('refuses what it does not serve, saying what it does', async () => {
    const answer = await fetch(`${pool.url}/nothing`, { method: 'POST' });
    expect(answer.status).toBe(404);
    expect(await answer.json()).toEqual({
      message: '/nothing is not served: /acquire, /restart, /release',
    });
    const release = await fetch(`${pool.url}/release`, { method: 'POST', body: '{"id":"7"}' });
    expect(release.status).toBe(404);
    expect(await release.json()).toEqual({ message: 'no control plane is handed out as "7"' });
    const notJson = await fetch(`${pool.url}/acquire`, { method: 'POST', body: '{' });
    expect(notJson.status).toBe(400);
  });

  it('publishes its URL in the environment until closed, when asked to', async () => {
    const before = process.env[controlPlanePoolVariable];
    delete process.env[controlPlanePoolVariable];
    try {
      const published = await startControlPlanePool({ assetsDirectory: directory });
      expect(process.env[controlPlanePoolVariable]).toBe(published.url);
      await published.close();
      expect(process.env[controlPlanePoolVariable]).toBeUndefined();
    } finally {
      if (before !== undefined) process.env[controlPlanePoolVariable] = before;
    }
  });
});
