import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { conversionCrd } from '../../test/fixture-operator.js';
import { type K8sObject, kustomize } from '../kubectl.js';
import { main } from '../main.js';
import { readOperatorProject } from '../operator-project.js';
import { operatorExport } from './create.js';
import { localWebhookObjects } from './webhook-local.js';

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
const v2 = ['create', 'api', '--group', 'cache.example.com', '--version', 'v2', '--kind', 'Cache'];
const conversionWebhook = [
  'create',
  'webhook',
  '--conversion',
  '--version',
  'v2',
  '--kind',
  'Cache',
  '--skip-manifests',
];

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

/** The manager as a user may have edited it: without the lines that disable its webhooks. */
async function removeDisableWebhooks(): Promise<void> {
  const manager = (await read('config/manager/manager.yaml')).replace(
    /\n\s+# No admission webhooks yet.*\n\s+- --disable-webhooks/,
    '',
  );
  await writeFile(join(project, 'config/manager/manager.yaml'), manager);
}

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

  it('adds another version of an existing kind as a spoke with its conversion, the first staying the hub', async () => {
    const result = await run([...v2, '--skip-manifests']);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain(
      'Cache (cache.example.com/v2): wrote or changed 3 files:\n  src/api/v1/cache.ts\n  src/api/v2/cache-conversion.ts\n  src/api/v2/cache.ts\n',
    );
    const definition = await read('src/api/v1/cache.ts');
    expect(definition).toContain("import { cacheV2 } from '../v2/cache.js';");
    expect(definition).toMatch(/\},\s*cacheV2\s*\],\s*\}\);/);
    const version = await read('src/api/v2/cache.ts');
    expect(version).toContain("import type { cacheResource } from '../v1/cache.js';");
    expect(version).toContain("name: 'v2',\n  served: true,\n  storage: false,");
    expect(version).toContain("export type CacheV2 = CustomResource<typeof cacheResource, 'v2'>;");
    const conversion = await read('src/api/v2/cache-conversion.ts');
    expect(conversion).toContain("Conversion<\n  typeof cacheResource,\n  'v2'\n>");
    expect(conversion).toContain(
      "toHub: (spoke) => ({ ...spoke, apiVersion: 'cache.example.com/v1' }),",
    );
    expect(conversion).toContain(
      "fromHub: (hub) => ({ ...hub, apiVersion: 'cache.example.com/v2' }),",
    );
    const again = await run([...v2, '--skip-manifests']);
    expect(again.stdout).toBe(
      'Cache (cache.example.com/v2): already in cache-operator; nothing changed.\n',
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
    await removeDisableWebhooks();
    const result = await run(['create', 'webhook', '--version', 'v1', '--kind', 'Cache']);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      'config/manager/manager.yaml: change\n-             # No admission webhooks yet',
    );
    expect(existsSync(join(project, 'config/webhook'))).toBe(false);
    expect(await read('src/operator.ts')).not.toContain('webhooks:');
  });
});

/** The webhook configuration ops-manifests renders, reduced to what kustomize reads. */
const webhookConfiguration = {
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingWebhookConfiguration',
  metadata: { name: 'validating-webhook-configuration' },
  webhooks: [
    {
      name: 'vcache-v1.cache.example.com',
      clientConfig: {
        service: { name: 'webhook-service', namespace: 'system', path: '/validate' },
      },
    },
  ],
};

describe('ops-operator create webhook --conversion', () => {
  /** config/`overlay` rendered by kustomize, by kind. */
  async function rendered(overlay: string): Promise<Map<string, K8sObject>> {
    const objects = await kustomize(project, `config/${overlay}`);
    return new Map(objects.map((object) => [object.kind, object]));
  }

  /**
   * What ops-manifests generates, reduced to what kustomize reads: the CRD of Cache once the
   * build sees conversion: 'Webhook' (its schemas left out), the roles, and with `admission`
   * the webhook configurations.
   */
  async function writeGeneratedFiles(options: { admission: boolean }): Promise<void> {
    const bases = join(project, 'config', 'crd', 'bases');
    await mkdir(bases, { recursive: true });
    const crd = conversionCrd('cache.example.com', 'Cache', {
      name: 'webhook-service',
      namespace: 'system',
    });
    await writeFile(join(bases, 'cache.example.com_caches.yaml'), YAML.stringify(crd));
    const generated: Record<string, unknown> = {
      'config/rbac/role.yaml': {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name: 'manager-role' },
        rules: [],
      },
      ...(options.admission ? { 'config/webhook/manifests.yaml': webhookConfiguration } : {}),
      'config/rbac/metrics_auth_role.yaml': {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name: 'metrics-auth-role' },
        rules: [],
      },
      'config/rbac/metrics_auth_role_binding.yaml': {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRoleBinding',
        metadata: { name: 'metrics-auth-rolebinding' },
        roleRef: {
          apiGroup: 'rbac.authorization.k8s.io',
          kind: 'ClusterRole',
          name: 'metrics-auth-role',
        },
        subjects: [{ kind: 'ServiceAccount', name: 'controller-manager', namespace: 'system' }],
      },
      'config/rbac/metrics_reader_role.yaml': {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name: 'metrics-reader' },
        rules: [],
      },
      'config/self-managed-certs/role.yaml': {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name: 'cache-operator-self-managed-certs-role' },
        rules: [],
      },
    };
    for (const [path, object] of Object.entries(generated)) {
      await writeFile(join(project, path), YAML.stringify(object));
    }
  }
  /** Cache's CRD as config/default renders it: cert-manager injects the CA, the Service renamed. */
  function expectCertManagerCrd(crd: K8sObject | undefined): void {
    expect(crd?.metadata.annotations).toEqual({
      'cert-manager.io/inject-ca-from': 'cache-operator-system/cache-operator-serving-cert',
    });
    expect(crd?.spec.conversion.webhook.clientConfig.service).toEqual({
      name: 'cache-operator-webhook-service',
      namespace: 'cache-operator-system',
      path: '/convert',
    });
  }

  it('serves the conversion of a version create api added, with the CA injected into the CRD', async () => {
    await run([...webhook.slice(0, 2), '--version', 'v1', '--kind', 'Cache', '--skip-manifests']);
    await run([...v2, '--skip-manifests']);
    const result = await run(conversionWebhook);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain(
      'Cache (cache.example.com/v2) conversion webhook: wrote or changed',
    );
    expect(await read('src/api/v1/cache.ts')).toContain(
      "scope: 'Namespaced',\n  conversion: 'Webhook',",
    );
    expect(await read('src/webhook/cache-conversion.ts')).toContain(
      'export const cacheConversion = defineConversion(cacheResource, {\n  v2: cacheV2Conversion,\n});',
    );
    expect(await read('src/operator.ts')).toContain('conversions: [cacheConversion],');
    expect(YAML.parse(await read('config/crd/kustomization.yaml')).configurations).toEqual([
      'kustomizeconfig.yaml',
    ]);
    const again = await run(conversionWebhook);
    expect(again.stderr).toBe('');
    expect(again.stdout).toBe(
      'Cache (cache.example.com/v2) conversion webhook: already in cache-operator; nothing changed.\n',
    );
    await writeGeneratedFiles({ admission: true });
    expectCertManagerCrd((await rendered('default')).get('CustomResourceDefinition'));
    const selfManaged = (await rendered('default-no-certmanager')).get('CustomResourceDefinition');
    expect(selfManaged?.metadata.annotations ?? {}).toEqual({});
    expect(selfManaged?.spec.conversion.webhook.clientConfig.service.name).toBe(
      'cache-operator-webhook-service',
    );
    // webhook-local routes the conversion webhook with the admission webhooks: the CRD of the
    // no-cert-manager overlay, trusting the local CA, calls the same selector-less Service.
    const local = await localWebhookObjects(readOperatorProject(project), {
      hostIp: '192.0.2.10',
      port: 9443,
      caCert: 'LOCAL CA',
    });
    expect(local.map((object) => object.kind)).toEqual([
      'Namespace',
      'Service',
      'Endpoints',
      'ValidatingWebhookConfiguration',
      'CustomResourceDefinition',
    ]);
    expect(local[4]?.spec.conversion.webhook.clientConfig).toEqual({
      service: {
        name: 'cache-operator-webhook-service',
        namespace: 'cache-operator-system',
        path: '/convert',
      },
      caBundle: Buffer.from('LOCAL CA').toString('base64'),
    });
  });

  it('refuses a version without a conversion, saying what to run first', async () => {
    const noVersion = await run(conversionWebhook);
    expect(noVersion.status).toBe(1);
    expect(noVersion.stderr).toContain(
      'Cache v2 has no conversion (src/api/v2/cache-conversion.ts): the conversion webhook converts another version to the storage version, so add it first with ops-operator create api --group cache.example.com --version v2 --kind Cache',
    );
  });

  it('gives an operator without webhooks the webhook server for its conversion alone, keeping a file of its own, and switches it to admission webhooks later', async () => {
    await run([...v2, '--skip-manifests']);
    // The user's own Issuer (as a CA Issuer would be): kept as it is.
    const issuer =
      '# mine\napiVersion: cert-manager.io/v1\nkind: Issuer\nmetadata:\n  name: selfsigned-issuer\n  namespace: system\nspec:\n  selfSigned: {}\n';
    await mkdir(join(project, 'config', 'certmanager'), { recursive: true });
    await writeFile(join(project, 'config/certmanager/issuer.yaml'), issuer);
    const result = await run(conversionWebhook);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain('kept as they were: 1 (config/certmanager/issuer.yaml)');
    expect(await read('config/certmanager/issuer.yaml')).toBe(issuer);
    // config/webhook: the Service alone, no webhook configurations.
    expect(YAML.parse(await read('config/webhook/kustomization.yaml'))).toEqual({
      resources: ['service.yaml'],
    });
    expect(existsSync(join(project, 'config/webhook/kustomizeconfig.yaml'))).toBe(false);
    for (const path of [
      'config/webhook/service.yaml',
      'config/certmanager/certificate-webhook.yaml',
      'config/self-managed-certs/kustomization.yaml',
      'config/self-managed-certs/role_binding.yaml',
      'config/crd/kustomizeconfig.yaml',
      'src/webhook/cache-conversion.ts',
    ]) {
      expect(existsSync(join(project, path)), path).toBe(true);
    }
    const manager = YAML.parseAllDocuments(await read('config/manager/manager.yaml'))
      .map((document) => document.toJS())
      .find((object) => object.kind === 'Deployment');
    const container = manager.spec.template.spec.containers[0];
    expect(container.args).not.toContain('--disable-webhooks');
    expect(container.ports.map((port: { name: string }) => port.name)).toContain('webhook-server');
    expect(manager.spec.template.spec.volumes[1]).toEqual({
      name: 'webhook-certs',
      secret: { secretName: 'webhook-server-cert' },
    });
    const manifests = await read('src/manifests.ts');
    expect(manifests).not.toContain('export const webhooks');
    expect(manifests).toContain("certificateRbacOf(cacheOperator, 'cache-operator-system')");
    expect(JSON.parse(await read('package.json')).scripts['webhook-certs']).toBe(
      'ops-operator webhook-certs',
    );
    const again = await run(conversionWebhook);
    expect(again.stdout).toBe(
      'Cache (cache.example.com/v2) conversion webhook: already in cache-operator; nothing changed.\n',
    );

    await writeGeneratedFiles({ admission: false });
    const objects = await kustomize(project, 'config/default');
    const ids = objects.map((object) => `${object.kind}/${object.metadata.name}`);
    expect(ids).toEqual(
      expect.arrayContaining([
        'Service/cache-operator-webhook-service',
        'Certificate/cache-operator-serving-cert',
        'Issuer/cache-operator-selfsigned-issuer',
      ]),
    );
    expect(ids.filter((id) => id.includes('WebhookConfiguration'))).toEqual([]);
    expectCertManagerCrd(objects.find((object) => object.kind === 'CustomResourceDefinition'));
    const certificate = objects.find((object) => object.kind === 'Certificate');
    expect(certificate?.spec.dnsNames).toEqual([
      'cache-operator-webhook-service.cache-operator-system.svc',
      'cache-operator-webhook-service.cache-operator-system.svc.cluster.local',
    ]);
    // Self-managed: no cert-manager objects or annotation, the operator injects its own CA.
    const selfManaged = await rendered('default-no-certmanager');
    expect(selfManaged.has('Certificate')).toBe(false);
    expect(selfManaged.has('Issuer')).toBe(false);
    expect(selfManaged.get('CustomResourceDefinition')?.metadata.annotations ?? {}).toEqual({});
    expect(selfManaged.get('Deployment')?.spec.template.spec.containers[0].args).toContain(
      '--webhook-cert-mode=self-managed',
    );
    expect(selfManaged.get('ClusterRoleBinding')).toBeDefined();

    // Admission webhooks later: config/webhook gains their configurations, the conversion's
    // CA injection stays.
    const admission = await run([
      ...webhook.slice(0, 2),
      '--version',
      'v1',
      '--kind',
      'Cache',
      '--skip-manifests',
    ]);
    expect(admission.status, admission.stderr).toBe(0);
    expect(YAML.parse(await read('config/webhook/kustomization.yaml'))).toEqual({
      resources: ['manifests.yaml', 'service.yaml'],
      configurations: ['kustomizeconfig.yaml'],
    });
    expect(await read('src/manifests.ts')).toContain(
      'export const webhooks = cacheOperator.webhooks ?? [];',
    );
    await writeGeneratedFiles({ admission: true });
    const both = await kustomize(project, 'config/default');
    for (const kind of ['CustomResourceDefinition', 'ValidatingWebhookConfiguration']) {
      expect(both.find((object) => object.kind === kind)?.metadata.annotations, kind).toEqual({
        'cert-manager.io/inject-ca-from': 'cache-operator-system/cache-operator-serving-cert',
      });
    }
    const bothSelfManaged = await rendered('default-no-certmanager');
    for (const kind of ['CustomResourceDefinition', 'ValidatingWebhookConfiguration']) {
      expect(bothSelfManaged.get(kind)?.metadata.annotations ?? {}, kind).toEqual({});
    }
  });

  it('refuses, writing nothing, when an edited manager has lost the lines to change', async () => {
    await run([...v2, '--skip-manifests']);
    await removeDisableWebhooks();
    const result = await run(conversionWebhook);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      'config/manager/manager.yaml: change\n-             # No admission webhooks yet',
    );
    expect(existsSync(join(project, 'config/webhook'))).toBe(false);
    expect(existsSync(join(project, 'src/webhook'))).toBe(false);
    expect(await read('src/api/v1/cache.ts')).not.toContain('conversion:');
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
