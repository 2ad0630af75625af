/**
 * A registry for the `@ops` scope only, serving the packed tarballs over HTTP on the loopback
 * address, so that npm and pnpm resolve a project's `"@ops/core": "^0.1.0"` as they would from
 * npmjs.com without anything being published, and fetch every other package from the
 * registry they are configured with. Point them at it with the scoped setting
 * `@ops:registry`, written to a user config file ({@link LocalRegistry.env}): npm passes that
 * file on to the commands it runs (`npm create` runs init, which runs `npm install`), where a
 * `npm_config_@ops:registry` variable would be dropped.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename, join } from 'node:path';
import type { PackedPackage } from './pack-all.js';

/** A running {@link startLocalRegistry}. */
export interface LocalRegistry {
  /** `http://127.0.0.1:<port>/`. */
  url: string;
  /**
   * The environment that makes npm and pnpm take `@ops/*` from it: `npm_config_userconfig`,
   * a file holding `@ops:registry=<url>` and nothing else.
   */
  env: Record<string, string>;
  /** The names and paths it was asked for, in order (to prove what was resolved here). */
  requests: string[];
  close(): Promise<void>;
}

interface Entry {
  manifest: { name: string; version: string } & Record<string, unknown>;
  tarball: string;
  integrity: string;
  shasum: string;
}

/**
 * Serves `packed`: `GET /<name>` (`@ops%2fcore` or `@ops/core`) answers the packument
 * (`dist-tags.latest` and the one version, with its tarball's URL, integrity and shasum),
 * `GET /-/<file>.tgz` the tarball; anything else is a 404, as for a name the registry
 * does not have.
 */
export async function startLocalRegistry(
  packed: readonly PackedPackage[],
  configDirectory: string,
): Promise<LocalRegistry> {
  const entries = new Map<string, Entry>();
  for (const { name, tarball } of packed) {
    const manifest = JSON.parse(
      execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }),
    ) as Entry['manifest'];
    const bytes = readFileSync(tarball);
    entries.set(name, {
      manifest,
      tarball,
      integrity: `sha512-${createHash('sha512').update(bytes).digest('base64')}`,
      shasum: createHash('sha1').update(bytes).digest('hex'),
    });
  }
  const requests: string[] = [];
  const server: Server = createServer((request, response) => {
    const path = decodeURIComponent((request.url ?? '/').split('?')[0] ?? '/');
    requests.push(path);
    const address = server.address() as AddressInfo;
    const base = `http://127.0.0.1:${address.port}`;
    const file = /^\/-\/(.+\.tgz)$/.exec(path)?.[1];
    if (file !== undefined) {
      const entry = [...entries.values()].find((candidate) => basename(candidate.tarball) === file);
      if (entry === undefined) return notFound(response);
      response.writeHead(200, { 'content-type': 'application/octet-stream' });
      response.end(readFileSync(entry.tarball));
      return;
    }
    const entry = entries.get(path.slice(1));
    if (entry === undefined) return notFound(response);
    const { version } = entry.manifest;
    const body = {
      name: entry.manifest.name,
      'dist-tags': { latest: version },
      versions: {
        [version]: {
          ...entry.manifest,
          dist: {
            tarball: `${base}/-/${basename(entry.tarball)}`,
            integrity: entry.integrity,
            shasum: entry.shasum,
          },
        },
      },
    };
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const userconfig = join(configDirectory, 'npmrc');
  writeFileSync(userconfig, `@ops:registry=${url}\n`);
  return {
    url,
    env: { npm_config_userconfig: userconfig },
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

function notFound(response: import('node:http').ServerResponse): void {
  response.writeHead(404, { 'content-type': 'application/json' });
  response.end('{"error":"not found"}');
}
