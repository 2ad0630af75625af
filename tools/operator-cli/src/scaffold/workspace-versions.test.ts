import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findWorkspaceRoot, workspacePackages, workspaceVersion } from './workspace-versions.js';

let root: string;
const write = async (path: string, content: unknown) => {
  await mkdir(join(root, path, '..'), { recursive: true });
  await writeFile(
    join(root, path),
    typeof content === 'string' ? content : JSON.stringify(content),
  );
};

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'ops-workspace-'));
  await write(
    'pnpm-workspace.yaml',
    'packages:\n  - packages/*\n  - tools/cli\n  - "!packages/old"\n',
  );
  await write('package.json', {
    name: 'root',
    devDependencies: { tsup: '9.0.0', vitest: '^5.0.0' },
  });
  await write('packages/a/package.json', {
    name: 'a',
    dependencies: { yaml: '2.9.1', pino: '10.4.0' },
  });
  await write('packages/b/package.json', {
    name: 'b',
    devDependencies: { pino: '10.3.0', yaml: 'workspace:*' },
  });
  await write('packages/old/package.json', { name: 'old', dependencies: { tsup: '1.0.0' } });
  await write('tools/cli/package.json', { name: 'cli', devDependencies: { tsup: '9.0.0' } });
  await write('tools/other/package.json', { name: 'other', devDependencies: { tsup: '2.0.0' } });
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('workspace versions', () => {
  it('finds the workspace root from below it', () => {
    expect(findWorkspaceRoot(join(root, 'packages', 'a'))).toBe(root);
  });

  it('reads the root and the packages the workspace names, minus exclusions', () => {
    expect(
      workspacePackages(root)
        .map((pkg) => pkg.manifest.name)
        .sort(),
    ).toEqual(['a', 'b', 'cli', 'root']);
  });

  it('gives the one exact version, ignoring ranges and workspace links', () => {
    const packages = workspacePackages(root);
    expect(workspaceVersion(packages, 'tsup')).toBe('9.0.0');
    expect(workspaceVersion(packages, 'yaml')).toBe('2.9.1');
  });

  it('refuses a dependency pinned nowhere, or pinned at two versions', () => {
    const packages = workspacePackages(root);
    expect(() => workspaceVersion(packages, 'vitest')).toThrow(
      'no workspace package depends on vitest at an exact version, so the new operator cannot take its version from the workspace: add "vitest": "<x.y.z>" to the root package.json\'s devDependencies and run pnpm install',
    );
    expect(() => workspaceVersion(packages, 'pino')).toThrow(
      'the workspace depends on pino at 10.4.0 (a) and 10.3.0 (b): pin one version everywhere first, so the new operator uses the same',
    );
  });

  it('says where to run from outside a workspace', () => {
    expect(() => findWorkspaceRoot(tmpdir())).toThrow(
      /is not in a pnpm workspace .* or pass --workspace <directory>$/,
    );
  });
});
