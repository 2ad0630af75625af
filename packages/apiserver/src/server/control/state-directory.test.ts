import { X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadServerState } from './state-directory.js';

let dir: string;
const hosts = ['localhost', '127.0.0.1', '::1'];

beforeEach(async () => {
  dir = join(await mkdtemp(join(tmpdir(), 'state-directory-')), 'state');
});
afterEach(async () => {
  await rm(join(dir, '..'), { recursive: true, force: true });
});

describe('loadServerState', () => {
  it('makes the state once, with private files, and loads the same state again', async () => {
    const first = await loadServerState(dir, { https: true, hosts });
    expect(first.adminToken).toMatch(/^[0-9a-f]{48}$/);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    for (const file of ['admin.token', 'ca.key', 'apiserver.key'])
      expect((await stat(join(dir, file))).mode & 0o777).toBe(0o600);
    expect(await loadServerState(dir, { https: true, hosts })).toEqual(first);
  });

  it('re-signs the serving certificate with the same CA when the hosts change', async () => {
    const first = await loadServerState(dir, { https: true, hosts });
    const second = await loadServerState(dir, { https: true, hosts: ['localhost', '10.0.0.5'] });
    expect(second.certificates?.caCert).toBe(first.certificates?.caCert);
    expect(second.certificates?.cert).not.toBe(first.certificates?.cert);
    const ca = new X509Certificate(second.certificates?.caCert ?? '');
    const serving = new X509Certificate(second.certificates?.cert ?? '');
    expect(serving.verify(ca.publicKey)).toBe(true);
    expect(serving.subjectAltName).toContain('IP Address:10.0.0.5');
    expect(second.adminToken).toBe(first.adminToken);
  });

  it('keeps only the admin token for plain HTTP', async () => {
    const state = await loadServerState(dir, { https: false, hosts });
    expect(state.certificates).toBeUndefined();
    expect((await readFile(join(dir, 'admin.token'), 'utf8')).trim()).toBe(state.adminToken);
  });

  it('says what is wrong with a broken directory and how to recover', async () => {
    await loadServerState(dir, { https: true, hosts });
    await rm(join(dir, 'apiserver.key'));
    await expect(loadServerState(dir, { https: true, hosts })).rejects.toThrow(
      `the state directory ${dir} holds apiserver.crt but not apiserver.key; restore the file, or remove the directory`,
    );
    await writeFile(join(dir, 'admin.token'), 'two\nlines');
    await expect(loadServerState(dir, { https: false, hosts })).rejects.toThrow(
      'holds an admin.token that is not one token on one line',
    );
  });
});
