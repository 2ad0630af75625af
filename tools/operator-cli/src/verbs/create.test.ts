import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { main } from '../main.js';
import { operatorExport } from './create.js';

let parent: string;
let project: string;

async function run(verb: string[], cwd = project) {
  const output = { stdout: '', stderr: '' };
  const status = await main(verb, {
    cwd,
    env: { npm_config_user_agent: 'npm/11.6.0 node/v24.21.0' },
    stdout: (text) => {
      output.stdout += text;
    },
    stderr: (text) => {
      output.stderr += text;
    },
  });
  return { status, ...output };
}

const read = (path: string) => readFile(join(project, path), 'utf8');
const api = ['create', 'api', '--group', 'other.example.com', '--version', 'v1alpha1'];
const second = [...api, '--kind', 'CacheEntry', '--skip-manifests'];
const webhook = ['create', 'webhook', '--version', 'v1alpha1', '--kind', 'CacheEntry'];

beforeEach(async () => {
  parent = await mkdtemp(join(tmpdir(), 'ops-create-'));
  project = join(parent, 'cache-operator');
  const init = await run(
    [
      'init',
      'cache-operator',
      '--group',
      'cache.example.com',
      '--version',
      'v1',
      '--kind',
      'Cache',
      '--skip-install',
    ],
    parent,
  );
  expect(init.status, init.stderr).toBe(0);
});
afterEach(async () => {
  await rm(parent, { recursive: true, force: true });
});

describe('ops-operator create api', () => {
  it('adds a kind in a new group/version and registers it everywhere', async () => {
    const result = await run(second);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain(
      'CacheEntry (other.example.com/v1alpha1): wrote or changed 11 files:',
    );
    for (const path of [
      'src/api/v1alpha1/cache-entry.ts',
      'src/controller/cache-entry.ts',
      'test/cache-entry.e2e.test.ts',
      'config/samples/other_v1alpha1_cacheentry.yaml',
      'config/rbac/cacheentry_editor_role.yaml',
    ]) {
      expect(existsSync(join(project, path)), path).toBe(true);
    }
    const operator = await read('src/operator.ts');
    expect(operator).toContain(
      "import { addCacheEntryController } from './controller/cache-entry.js';",
    );
    expect(operator).toMatch(
      /addCacheController\(manager\);\n\s+addCacheEntryController\(manager\);/,
    );
    const manifests = await read('src/manifests.ts');
    expect(manifests).toContain(
      'export const customResources = [cacheResource, cacheEntryResource];',
    );
    expect(manifests).toContain('rules: [...cacheRbac, ...cacheEntryRbac]');
    expect(YAML.parse(await read('config/crd/kustomization.yaml')).resources).toEqual([
      'bases/cache.example.com_caches.yaml',
      'bases/other.example.com_cacheentries.yaml',
    ]);
    expect(YAML.parse(await read('config/samples/kustomization.yaml')).resources).toEqual([
      'cache_v1_cache.yaml',
      'other_v1alpha1_cacheentry.yaml',
    ]);
    // Comments are kept.
    expect(await read('config/rbac/kustomization.yaml')).toContain('# Leader election');
  });

  it('changes nothing when run again, and says so', async () => {
    await run(second);
    const before = await read('src/operator.ts');
    const again = await run(second);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toBe(
      'CacheEntry (other.example.com/v1alpha1): already in cache-operator; nothing changed.\n',
    );
    expect(await read('src/operator.ts')).toBe(before);
  });

  it("keeps a user's file and adds only what is missing", async () => {
    await run(second);
    await writeFile(join(project, 'src/controller/cache-entry.ts'), '// mine\n');
    const manifests = (await read('src/manifests.ts')).replace(', cacheEntryResource', '');
    await writeFile(join(project, 'src/manifests.ts'), manifests);
    const again = await run(second);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toContain('wrote or changed 1 files:\n  src/manifests.ts\n');
    expect(await read('src/controller/cache-entry.ts')).toBe('// mine\n');
    expect(await read('src/manifests.ts')).toContain('[cacheResource, cacheEntryResource]');
  });

  it('adds a kind to the same group/version', async () => {
    const result = await run([
      'create',
      'api',
      '--group',
      'cache.example.com',
      '--version',
      'v1',
      '--kind',
      'Shard',
      '--cluster',
      '--skip-manifests',
    ]);
    expect(result.status, result.stderr).toBe(0);
    expect(await read('src/api/v1/shard.ts')).toContain("scope: 'Cluster',");
    expect(await read('src/manifests.ts')).toContain('[cacheResource, shardResource]');
  });

  it('refuses, writing nothing, when the place to insert is gone, with the line to add', async () => {
    const operator = (await read('src/operator.ts')).replace(
      /setup\(manager\) \{\n\s+addCacheController\(manager\);\n\s+\},/,
      'setup: addCacheController,',
    );
    await writeFile(join(project, 'src/operator.ts'), operator);
    const result = await run(second);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      'src/operator.ts: its setup has no line "addXController(manager);" to add after.',
    );
    expect(result.stderr).toContain('    addCacheEntryController(manager);');
    expect(existsSync(join(project, 'src/api/v1alpha1'))).toBe(false);
    expect(await read('src/manifests.ts')).not.toContain('cacheEntry');
  });

  it('refuses a second version of an existing kind', async () => {
    const result = await run([
      'create',
      'api',
      '--group',
      'cache.example.com',
      '--version',
      'v2',
      '--kind',
      'Cache',
    ]);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      'Cache exists in v1 (src/api/v1/cache.ts): a second version of a kind needs a conversion',
    );
  });

  it('refuses outside an operator', async () => {
    const result = await run(second, parent);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/operator/);
  });
});

describe('ops-operator create webhook', () => {
  it('adds the webhooks and, for the first, their config and certificate wiring', async () => {
    await run(second);
    const result = await run([...webhook, '--skip-manifests']);
    expect(result.status, result.stderr).toBe(0);
    for (const path of [
      'src/webhook/cache-entry.ts',
      'src/webhook/cache-entry.test.ts',
      'test/cache-entry-webhook.e2e.test.ts',
      'config/webhook/kustomization.yaml',
      'config/certmanager/certificate-webhook.yaml',
      'config/default-no-certmanager/kustomization.yaml',
      'config/self-managed-certs/role_binding.yaml',
    ]) {
      expect(existsSync(join(project, path)), path).toBe(true);
    }
    expect(await read('src/operator.ts')).toContain(
      'webhooks: [cacheEntryDefaulter, cacheEntryValidator],',
    );
    const manager = YAML.parseAllDocuments(await read('config/manager/manager.yaml'))
      .map((document) => document.toJS())
      .find((object) => object.kind === 'Deployment');
    const container = manager.spec.template.spec.containers[0];
    expect(container.args).not.toContain('--disable-webhooks');
    expect(container.ports.map((port: { name: string }) => port.name)).toEqual([
      'metrics',
      'health',
      'webhook-server',
    ]);
    expect(container.volumeMounts.map((mount: { name: string }) => mount.name)).toEqual([
      'tmp',
      'webhook-certs',
    ]);
    expect(YAML.parse(await read('config/default/kustomization.yaml')).resources).toEqual(
      expect.arrayContaining(['../webhook', '../certmanager']),
    );
    const manifests = await read('src/manifests.ts');
    expect(manifests).toContain('export const webhooks = cacheOperator.webhooks ?? [];');
    expect(manifests).toContain("certificateRbacOf(cacheOperator, 'cache-operator-system')");
    expect(JSON.parse(await read('package.json')).scripts['webhook-local']).toBe(
      'ops-operator webhook-local',
    );
    expect(await read('src/webhook/cache-entry.ts')).toContain(
      "validateCacheEntryPath = '/validate-other-example-com-v1alpha1-cacheentry'",
    );
  });

  it('adds a second kind to the webhooks there are, and changes nothing when run again', async () => {
    await run([...webhook.slice(0, 2), '--version', 'v1', '--kind', 'Cache', '--skip-manifests']);
    await run(second);
    const manager = await read('config/manager/manager.yaml');
    const result = await run([...webhook, '--skip-manifests']);
    expect(result.status, result.stderr).toBe(0);
    expect(await read('src/operator.ts')).toContain(
      'webhooks: [cacheDefaulter, cacheValidator, cacheEntryDefaulter, cacheEntryValidator],',
    );
    expect(await read('config/manager/manager.yaml')).toBe(manager);
    const again = await run([...webhook, '--skip-manifests']);
    expect(again.stdout).toBe(
      'CacheEntry (other.example.com/v1alpha1) webhooks: already in cache-operator; nothing changed.\n',
    );
  });

  it('refuses an unknown kind, naming the kinds there are and create api', async () => {
    const result = await run(['create', 'webhook', '--version', 'v1', '--kind', 'Nope']);
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(
      'ops-operator create: the operator has no kind Nope in v1 (no src/api/v1/nope.ts; src/api/v1 has cache.ts): create it first with ops-operator create api --group <group> --version v1 --kind Nope\n',
    );
  });

  it('refuses, writing nothing, when an edited manager has lost the lines to change', async () => {
    const manager = (await read('config/manager/manager.yaml')).replace(
      /\n\s+# No admission webhooks yet.*\n\s+- --disable-webhooks/,
      '',
    );
    await writeFile(join(project, 'config/manager/manager.yaml'), manager);
    const result = await run(['create', 'webhook', '--version', 'v1', '--kind', 'Cache']);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      'config/manager/manager.yaml: change\n-             # No admission webhooks yet',
    );
    expect(existsSync(join(project, 'config/webhook'))).toBe(false);
    expect(await read('src/operator.ts')).not.toContain('webhooks:');
  });
});

describe('ops-operator create api, in a pnpm workspace', () => {
  it('adds a kind to an operator written by new, with the workspace layout kept', async () => {
    const workspace = join(parent, 'workspace');
    await mkdir(workspace);
    await writeFile(join(workspace, 'pnpm-workspace.yaml'), 'packages:\n  - operators/*\n');
    const versions = {
      '@sinclair/typebox': '0.34.1',
      '@types/node': '24.1.0',
      pino: '10.1.0',
      tsup: '9.0.1',
      typescript: '6.0.1',
      vitest: '5.0.1',
      yaml: '2.8.0',
    };
    await writeFile(
      join(workspace, 'package.json'),
      JSON.stringify({ name: 'root', private: true, devDependencies: versions }),
    );
    const created = await run(
      [
        'new',
        'demo-operator',
        '--group',
        'demo.example.com',
        '--version',
        'v1',
        '--kind',
        'Demo',
        '--skip-install',
      ],
      workspace,
    );
    expect(created.status, created.stderr).toBe(0);
    const operator = join(workspace, 'operators', 'demo-operator');
    const result = await run([...second], operator);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain('Next: pnpm test');
    const test = await readFile(join(operator, 'test/cache-entry.e2e.test.ts'), 'utf8');
    expect(test).toContain('`pnpm run test:binaries`');
    expect(await readFile(join(operator, 'src/operator.ts'), 'utf8')).toContain(
      'addCacheEntryController(manager);',
    );
  });
});

describe('operatorExport', () => {
  it('finds the OperatorDefinition src/operator.ts exports', () => {
    expect(operatorExport('export const myOperator: OperatorDefinition = {')).toBe('myOperator');
    expect(operatorExport('export const x = 1;')).toBeUndefined();
  });
});
