// The `create-operator` bin as `npm create @ops/operator` runs it: a Node.js process in the
// user's directory, with npm's user agent, writing a standalone operator for npm.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../bin/create-operator.js', import.meta.url));
let parent: string;

beforeAll(async () => {
  parent = await mkdtemp(join(tmpdir(), 'ops-create-operator-'));
});
afterAll(async () => {
  if (parent) await rm(parent, { recursive: true, force: true });
});

const run = (args: string[], agent: string) =>
  promisify(execFile)(process.execPath, [bin, ...args], {
    cwd: parent,
    env: { ...process.env, npm_config_user_agent: agent },
  });

describe('create-operator', () => {
  it('runs ops-operator init with its arguments, for the package manager that runs it', async () => {
    const { stdout } = await run(
      [
        'cache-operator',
        '--group',
        'cache.example.com',
        '--version',
        'v1',
        '--kind',
        'Cache',
        '--skip-install',
      ],
      'npm/11.6.0 node/v24.21.0 linux x64 workspaces/false',
    );
    expect(stdout).toContain(
      'cache-operator: Cache (cache.example.com/v1, Namespaced) in cache-operator, for npm',
    );
    const manifest = JSON.parse(
      await readFile(join(parent, 'cache-operator/package.json'), 'utf8'),
    );
    expect(manifest.scripts.lint).toContain('npm run manifests:check');
    expect(existsSync(join(parent, 'cache-operator/src/operator.ts'))).toBe(true);
  });

  it("exits 1 with init's message for a directory that is not empty", async () => {
    const failure = await run(
      ['cache-operator', '--group', 'cache.example.com', '--version', 'v1', '--kind', 'Cache'],
      'pnpm/11.28.10 npm/? node/v24.21.0',
    ).catch((error: { code: number; stderr: string }) => error);
    expect(failure).toMatchObject({ code: 1 });
    expect((failure as { stderr: string }).stderr).toContain('is not empty (');
  });
});
