import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { main } from '../src/main.js';
import { packageDirectory, workDirectory, writeFixture } from './work-directory.js';

const work = workDirectory('readme');
afterAll(() => work.remove());

describe('README', () => {
  it('shows the example module verbatim, and the example commands do what it says', async () => {
    const example = readFileSync(join(packageDirectory, 'examples/manifests.mjs'), 'utf8');
    expect(readFileSync(join(packageDirectory, 'README.md'), 'utf8')).toContain(example.trim());

    // The example imports from packages, so it runs from inside this package.
    writeFixture(work.path, 'manifests.mjs', example);
    let stdout = '';
    const io = {
      cwd: work.path,
      stdout: (text: string) => {
        stdout += text;
      },
      stderr: () => {},
    };
    expect(await main(['--module', 'manifests.mjs'], io)).toBe(0);
    expect(stdout).toBe(
      [
        'created   config/crd/bases/core.crd.lixueduan.com_applications.yaml',
        'created   config/rbac/role.yaml',
        'created   config/rbac/metrics_auth_role.yaml',
        'created   config/rbac/metrics_auth_role_binding.yaml',
        'created   config/rbac/metrics_reader_role.yaml',
        '',
      ].join('\n'),
    );
    stdout = '';
    expect(await main(['--module', 'manifests.mjs', '--check'], io)).toBe(0);
    expect(stdout).toBe('ops-manifests: 5 file(s) up to date\n');
    const role = parse(readFileSync(join(work.path, 'config/rbac/role.yaml'), 'utf8'));
    expect(role.metadata.name).toBe('manager-role');
  });
});
