import { execFile } from 'node:child_process';
import { access, constants } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import { NginxNotFoundError, nginxInstallAdvice } from './errors/nginx-not-found-error.js';

const run = promisify(execFile);

/** An nginx binary that can run a Balancer's configuration. */
export interface Nginx {
  /** The binary. */
  path: string;
  /** Its version (`1.22.1`). */
  version: string;
  /**
   * The `load_module` directive its stream module needs when it is a dynamic module
   * (Debian's `libnginx-mod-stream`), to pass with `-g`; undefined when it is compiled in (as
   * in the official nginx images the proxy runs).
   */
  loadStreamModule?: string;
}

/** Where Debian's nginx keeps its dynamic modules. */
const debianModules = '/usr/lib/nginx/modules';

const accessible = async (path: string, mode: number) =>
  access(path, mode).then(
    () => true,
    () => false,
  );

/**
 * Finds an nginx with the stream module: `env.NGINX` when set (and then only it), else `nginx`
 * on `env.PATH`, else /usr/sbin/nginx (Debian's, off a normal user's PATH). The stream module
 * counts when compiled in (`--with-stream`) or built as a module (`--with-stream=dynamic`) whose
 * file is in Debian's modules directory.
 *
 * @throws NginxNotFoundError naming where it looked and how to install nginx.
 */
export async function findNginx(env: NodeJS.ProcessEnv = process.env): Promise<Nginx> {
  const candidates = env.NGINX
    ? [env.NGINX]
    : [
        ...(env.PATH ?? '')
          .split(delimiter)
          .filter(Boolean)
          .map((dir) => join(dir, 'nginx')),
        '/usr/sbin/nginx',
      ];
  const refused: string[] = [];
  for (const path of candidates) {
    if (!(await accessible(path, constants.X_OK))) continue;
    let flags: string;
    try {
      // nginx -V prints to stderr.
      const { stdout, stderr } = await run(path, ['-V']);
      flags = `${stdout}${stderr}`;
    } catch (error) {
      refused.push(`${path} (nginx -V failed: ${(error as Error).message})`);
      continue;
    }
    const version = /nginx\/(\d+\.\d+\.\d+)/.exec(flags)?.[1] ?? 'unknown';
    if (/--with-stream=dynamic(\s|$)/.test(flags)) {
      const module = join(debianModules, 'ngx_stream_module.so');
      if (await accessible(module, constants.R_OK)) {
        return { path, version, loadStreamModule: `load_module ${module};` };
      }
      refused.push(`${path} (its stream module ${module} is not installed)`);
      continue;
    }
    if (/--with-stream(\s|$)/.test(flags)) return { path, version };
    refused.push(`${path} (built without the stream module)`);
  }
  const looked = env.NGINX ? `NGINX=${env.NGINX}` : 'nginx on PATH and /usr/sbin/nginx';
  const found = refused.length > 0 ? `; found but unusable: ${refused.join(', ')}` : '';
  throw new NginxNotFoundError(
    `no nginx with the stream module (looked at ${looked}${found}): ${nginxInstallAdvice}`,
  );
}
