import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { NginxNotFoundError } from './errors/nginx-not-found-error.js';
import { findNginx } from './find-nginx.js';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A fake `nginx` whose `-V` prints `flags`, in a fresh directory. */
async function fakeNginx(flags: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'fake-nginx-'));
  dirs.push(dir);
  const path = join(dir, 'nginx');
  await writeFile(
    path,
    `#!/bin/sh\necho "nginx version: nginx/1.99.0" >&2\necho "configure arguments: ${flags}" >&2\n`,
  );
  await chmod(path, 0o755);
  return path;
}

describe('findNginx', () => {
  it('takes an nginx with the stream module compiled in, needing no load_module', async () => {
    const path = await fakeNginx('--prefix=/etc/nginx --with-stream --with-http_ssl_module');
    await expect(findNginx({ NGINX: path })).resolves.toEqual({ path, version: '1.99.0' });
  });

  it('refuses an nginx without the stream module, saying how to install one', async () => {
    const path = await fakeNginx('--prefix=/etc/nginx --with-http_ssl_module');
    const refused = await findNginx({ NGINX: path }).catch((error: unknown) => error);
    expect(NginxNotFoundError.isInstance(refused)).toBe(true);
    expect((refused as Error).message).toContain(`${path} (built without the stream module)`);
    expect((refused as Error).message).toContain('apt-get install nginx libnginx-mod-stream');
  });

  it('says where it looked when NGINX names no binary', async () => {
    await expect(findNginx({ NGINX: '/nonexistent/nginx' })).rejects.toThrow(
      /no nginx with the stream module \(looked at NGINX=\/nonexistent\/nginx\): install nginx/,
    );
  });
});
