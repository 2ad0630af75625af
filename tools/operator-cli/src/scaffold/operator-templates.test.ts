import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { operatorSpec } from './operator-spec.js';
import {
  fillPlaceholders,
  fillSections,
  renderOperatorTemplates,
  renderTemplates,
} from './operator-templates.js';

const versions: Record<string, string> = {
  '@sinclair/typebox': '1.2.3',
  '@types/node': '24.0.0',
  pino: '9.9.9',
  tsup: '8.8.8',
  typescript: '6.6.6',
  vitest: '5.5.5',
  yaml: '2.2.2',
  '@biomejs/biome': '2.0.0',
};
const versionOf = (dependency: string) => {
  if (dependency.startsWith('@ops/')) return 'workspace:*';
  const version = versions[dependency];
  if (version === undefined) throw new Error(`no version of ${dependency}`);
  return version;
};

describe('renderTemplates', () => {
  const spec = operatorSpec({
    name: 'backup-operator',
    group: 'storage.example.org',
    version: 'v1beta1',
    kind: 'BackupPolicy',
    cluster: true,
  });
  const files = renderOperatorTemplates(spec, versionOf);
  const file = (path: string) => {
    const found = files.find((candidate) => candidate.path === path);
    if (found === undefined)
      throw new Error(`no ${path} in ${files.map((f) => f.path).join(', ')}`);
    return found.content;
  };

  it('names the files after the spec and leaves no placeholder', () => {
    expect(files.map((f) => f.path)).toEqual(
      expect.arrayContaining([
        'package.json',
        'src/api/v1beta1/backup-policy.ts',
        'src/controller/backup-policy.ts',
        'test/backup-policy.e2e.test.ts',
        'config/samples/storage_v1beta1_backuppolicy.yaml',
        'config/rbac/backuppolicy_editor_role.yaml',
        'README.md',
      ]),
    );
    // A workspace operator's image is the workspace's shared operators/Dockerfile.
    expect(files.map((f) => f.path)).not.toContain('Dockerfile');
    expect(file('README.md')).toContain('`operators/Dockerfile` with `OPERATOR=backup-operator`');
    for (const { path, content } of files) {
      expect(`${path}\n${content}`).not.toMatch(/\{\{|\}\}/);
    }
  });

  it('writes a cluster-scoped API and a sample without a namespace', () => {
    expect(file('src/api/v1beta1/backup-policy.ts')).toContain("scope: 'Cluster',");
    expect(file('src/api/v1beta1/backup-policy.ts')).toContain("plural: 'backuppolicies',");
    const sample = YAML.parse(file('config/samples/storage_v1beta1_backuppolicy.yaml'));
    expect(sample).toMatchObject({
      apiVersion: 'storage.example.org/v1beta1',
      kind: 'BackupPolicy',
      metadata: { name: 'backuppolicy-sample' },
    });
    expect(sample.metadata.namespace).toBeUndefined();
  });

  it('puts a namespace into the sample of a namespaced kind', () => {
    const namespaced = renderOperatorTemplates({ ...spec, scope: 'Namespaced' }, versionOf);
    const sample = namespaced.find((f) => f.path.startsWith('config/samples/storage_'));
    expect(YAML.parse(sample?.content ?? '').metadata.namespace).toBe('default');
  });

  it('takes every dependency version from versionOf, and depends on workspace packages', () => {
    const manifest = JSON.parse(file('package.json'));
    expect(manifest.name).toBe('backup-operator');
    expect(manifest.dependencies).toEqual({
      '@ops/core': 'workspace:*',
      '@sinclair/typebox': '1.2.3',
    });
    expect(manifest.devDependencies).toMatchObject({
      tsup: '8.8.8',
      vitest: '5.5.5',
      yaml: '2.2.2',
    });
  });

  it("writes the image workflow with the operator's path filters and tag prefix", () => {
    const [workflow] = renderTemplates('workspace', spec, versionOf);
    expect(workflow?.path).toBe('.github/workflows/backup-operator.yml');
    const parsed = YAML.parse(workflow?.content ?? '');
    expect(parsed.on.pull_request.paths).toContain('operators/backup-operator/**');
    expect(parsed.on.pull_request.paths).toContain('operators/Dockerfile');
    expect(parsed.on.push.tags).toEqual(['backup-operator-v*']);
    expect(parsed.jobs.image.with).toEqual({
      operator: 'backup-operator',
      'tag-prefix': 'backup-operator-v',
    });
    // The chart test (operator-chart.yml, as kubebuilder's test-chart.yml): the sample Ready.
    expect(parsed.on.pull_request.paths).toContain('.github/workflows/operator-chart.yml');
    expect(parsed.jobs.chart).toEqual({
      uses: './.github/workflows/operator-chart.yml',
      with: {
        operator: 'backup-operator',
        release: 'backup-operator',
        'sample-ready':
          '--for=condition=Ready backuppolicies.storage.example.org/backuppolicy-sample\n',
      },
    });
  });

  it('refuses a template with a placeholder it does not know', async () => {
    expect(() => fillPlaceholders('a {{nope}} b', {}, versionOf, 'x.tmpl')).toThrow(
      'x.tmpl: unknown placeholder {{nope}}',
    );
    const directory = await mkdtemp(join(tmpdir(), 'ops-templates-'));
    try {
      const { mkdir } = await import('node:fs/promises');
      await mkdir(join(directory, 'broken'));
      await writeFile(join(directory, 'broken', 'a.txt.tmpl'), '{{kind}} {{kindd}}');
      expect(() => renderTemplates('broken', spec, versionOf, directory)).toThrow(
        `${join('broken', 'a.txt.tmpl')}: unknown placeholder {{kindd}}`,
      );
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('writes no webhooks unless asked, and leaves no section marker', () => {
    expect(files.some((f) => f.path.startsWith('config/webhook/'))).toBe(false);
    expect(file('config/manager/manager.yaml')).toContain('- --disable-webhooks');
    expect(file('src/operator.ts')).not.toContain('webhooks:');
    // ops-manifests derives the owner-reference RBAC from the operator the module exports.
    expect(file('src/manifests.ts')).toContain("import { backupOperator } from './operator.js';");
    expect(file('src/manifests.ts')).toContain('export const operator = backupOperator;');
    for (const { path, content } of files) expect(`${path}\n${content}`).not.toMatch(/\{\{[#^/]/);
  });
});

describe('renderOperatorTemplates with --webhooks', () => {
  const spec = operatorSpec({
    name: 'backup-operator',
    group: 'storage.example.org',
    version: 'v1beta1',
    kind: 'BackupPolicy',
    webhooks: true,
  });
  const files = renderOperatorTemplates(spec, versionOf);
  const file = (path: string) => files.find((candidate) => candidate.path === path)?.content ?? '';

  it('adds the example webhook and the webhook config, and leaves no marker', () => {
    expect(files.map((f) => f.path)).toEqual(
      expect.arrayContaining([
        'src/webhook/backup-policy.ts',
        'src/webhook/backup-policy.test.ts',
        'test/backup-policy-webhook.e2e.test.ts',
        'config/webhook/kustomization.yaml',
        'config/webhook/service.yaml',
        'config/certmanager/certificate-webhook.yaml',
        'config/default-no-certmanager/kustomization.yaml',
        'config/self-managed-certs/role_binding.yaml',
      ]),
    );
    for (const { path, content } of files) expect(`${path}\n${content}`).not.toMatch(/\{\{|\}\}/);
    expect(new Set(files.map((f) => f.path)).size).toBe(files.length);
  });

  // The README is written once: what it says of webhooks holds with them, without them and
  // after a later `create webhook` (the admission or the conversion kind).
  it('writes a README whose webhook paragraph holds whichever webhooks the operator has', () => {
    const readme = file('README.md');
    expect(readme).not.toMatch(/has no\s+admission\s+webhooks/);
    expect(readme).toContain('ops-operator create webhook --version v1beta1 --kind BackupPolicy');
    expect(readme).toContain('`create webhook --conversion`');
    expect(readme.replace(/\s+/g, ' ')).toContain(
      'An operator without any runs its manager with `--disable-webhooks`',
    );
  });

  it('serves the webhooks instead of disabling them, with the certificate mounted', () => {
    const manager = YAML.parseAllDocuments(file('config/manager/manager.yaml'))
      .map((document) => document.toJS())
      .find((object) => object.kind === 'Deployment');
    const container = manager.spec.template.spec.containers[0];
    expect(container.args).not.toContain('--disable-webhooks');
    expect(container.ports).toContainEqual({
      containerPort: 9443,
      name: 'webhook-server',
      protocol: 'TCP',
    });
    expect(container.volumeMounts).toContainEqual({
      mountPath: '/tmp/k8s-webhook-server/serving-certs',
      name: 'webhook-certs',
      readOnly: true,
    });
    const kustomization = YAML.parse(file('config/default/kustomization.yaml'));
    expect(kustomization.resources).toEqual(
      expect.arrayContaining(['../webhook', '../certmanager']),
    );
    expect(file('src/operator.ts')).toContain(
      'webhooks: [backupPolicyDefaulter, backupPolicyValidator],',
    );
    expect(file('src/webhook/backup-policy.ts')).toContain(
      "mutateBackupPolicyPath = '/mutate-storage-example-org-v1beta1-backuppolicy'",
    );
    expect(JSON.parse(file('package.json')).scripts['webhook-local']).toBe(
      'ops-operator webhook-local',
    );
  });
});

describe('the webhook templates for a conversion webhook', () => {
  const spec = operatorSpec({
    name: 'backup-operator',
    group: 'storage.example.org',
    version: 'v1beta1',
    kind: 'BackupPolicy',
  });
  const render = (webhooks: boolean, conversion: boolean) => [
    ...renderTemplates('operator', { ...spec, webhooks, conversion }, versionOf),
    ...renderTemplates('operator-webhooks', { ...spec, webhooks, conversion }, versionOf),
  ];

  it('render the same files for admission webhooks with a conversion webhook or without', () => {
    expect(render(true, true)).toEqual(render(true, false));
  });

  it('without admission webhooks: the Service, certificates and manager wiring, no webhook configurations', () => {
    const files = render(false, true);
    const file = (path: string) => files.find((candidate) => candidate.path === path)?.content;
    for (const { path, content } of files) expect(`${path}\n${content}`).not.toMatch(/\{\{|\}\}/);
    expect(YAML.parse(file('config/webhook/kustomization.yaml') ?? '')).toEqual({
      resources: ['service.yaml'],
    });
    expect(file('config/webhook/kustomizeconfig.yaml')).toBeUndefined();
    expect(file('config/webhook/service.yaml')).toBeDefined();
    expect(file('config/certmanager/certificate-webhook.yaml')).toBeDefined();
    const noCertManager = file('config/default-no-certmanager/kustomization.yaml') ?? '';
    expect(noCertManager).not.toContain('WebhookConfiguration');
    expect(noCertManager).toContain('value: --webhook-cert-mode=self-managed');
    const defaults = YAML.parse(file('config/default/kustomization.yaml') ?? '');
    expect(defaults.resources).toEqual(expect.arrayContaining(['../webhook', '../certmanager']));
    // The Certificate's DNS names; the CRDs' CA injection is added by create for each CRD.
    expect(
      defaults.replacements.map(
        (replacement: { source: { kind: string } }) => replacement.source.kind,
      ),
    ).toEqual(['Service', 'Service']);
    expect(file('config/manager/manager.yaml')).not.toContain('--disable-webhooks');
    expect(file('config/manager/manager.yaml')).toContain('name: webhook-server');
    expect(file('src/manifests.ts')).not.toContain('export const webhooks');
    expect(file('src/manifests.ts')).toContain(
      "export const selfManagedCertificateRbac = certificateRbacOf(backupOperator, 'backup-operator-system');",
    );
    expect(JSON.parse(file('package.json') ?? '{}').scripts['webhook-certs']).toBe(
      'ops-operator webhook-certs',
    );
  });
});

describe('renderOperatorTemplates for a standalone project (init)', () => {
  const input = {
    name: 'backup-operator',
    group: 'storage.example.org',
    version: 'v1beta1',
    kind: 'BackupPolicy',
    layout: 'standalone',
  } as const;
  const published = (dependency: string) =>
    dependency.startsWith('@ops/') ? '^0.1.0' : versionOf(dependency);
  const render = (packageManager: 'npm' | 'pnpm') =>
    renderOperatorTemplates(operatorSpec({ ...input, packageManager }), published);
  const npm = render('npm');
  const file = (files: typeof npm, path: string) =>
    files.find((candidate) => candidate.path === path)?.content ?? '';

  it('depends on the published packages by semver range and points at nothing outside', () => {
    const manifest = JSON.parse(file(npm, 'package.json'));
    expect(manifest.dependencies['@ops/core']).toBe('^0.1.0');
    expect(manifest.devDependencies).toMatchObject({
      '@ops/envtest': '^0.1.0',
      '@ops/operator-cli': '^0.1.0',
      '@biomejs/biome': '2.0.0',
    });
    for (const { path, content } of npm) {
      expect(`${path}\n${content}`, path).not.toMatch(/workspace:|\.\.\/\.\.\/|pnpm-workspace/);
      // Only the workflow has braces: GitHub's `${{ ... }}` expressions.
      const braces = path.endsWith('.yml')
        ? content.replace(/\$\{\{ [\w.' !=]+ \}\}/g, '')
        : content;
      expect(
        `${path}\n${braces.replace(/\{\{(is_default_branch|version)\}\}/g, '')}`,
        path,
      ).not.toMatch(/\{\{|\}\}/);
    }
    expect(JSON.parse(file(npm, 'tsconfig.json')).compilerOptions.strict).toBe(true);
    expect(file(npm, 'tsup.config.ts')).toContain("entry: { main: 'src/main.ts'");
  });

  it('builds the image from the project and writes its own workflow, lint and ignore files', () => {
    const paths = npm.map((f) => f.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        '.github/workflows/image.yml',
        '.gitignore',
        '.dockerignore',
        'biome.json',
        'Dockerfile',
      ]),
    );
    expect(file(npm, 'Dockerfile')).toContain('COPY package.json package-lock.json ./');
    expect(file(npm, 'Dockerfile')).toContain('COPY --from=build /workspace/dist/main.js');
    const workflow = YAML.parse(file(npm, '.github/workflows/image.yml'));
    expect(workflow.jobs.test.steps.map((step: { run?: string }) => step.run)).toContain('npm ci');
    expect(workflow.jobs.image.steps.at(-1).with.context).toBe('.');
    const owner = ['$', '{{ github.repository_owner }}'].join('');
    expect(file(npm, '.github/workflows/image.yml')).toContain(owner);
    // The chart test, as kubebuilder's test-chart.yml: lint, kind, install, helm test, sample.
    const chart = workflow.jobs.chart.steps.map(
      (step: { run?: string; uses?: string }) => step.run ?? step.uses,
    );
    expect(chart).toEqual(
      expect.arrayContaining([
        'helm lint --strict chart',
        'helm/kind-action@v1',
        'helm test backup-operator -n "$NAMESPACE" --logs --timeout 5m',
      ]),
    );
    expect(chart.join('\n')).toContain(
      'backuppolicies.storage.example.org/backuppolicy-sample --timeout=5m',
    );
  });

  it('writes the scripts, Dockerfile and README for the package manager chosen', () => {
    expect(JSON.parse(file(npm, 'package.json')).scripts.lint).toContain('npm run manifests:check');
    expect(file(npm, 'README.md')).toContain('npm run install-crds');
    const pnpm = render('pnpm');
    expect(JSON.parse(file(pnpm, 'package.json')).scripts.lint).toContain(
      'pnpm run manifests:check',
    );
    expect(file(pnpm, 'Dockerfile')).toContain('pnpm install --frozen-lockfile');
    // pnpm's settings (esbuild's install script allowed) for pnpm only.
    expect(YAML.parse(file(pnpm, 'pnpm-workspace.yaml'))).toEqual({
      allowBuilds: { esbuild: true },
    });
    expect(npm.some((f) => f.path === 'pnpm-workspace.yaml')).toBe(false);
    expect(file(pnpm, 'README.md')).toContain('pnpm exec ops-operator create api');
    expect(YAML.parse(file(pnpm, '.github/workflows/image.yml')).jobs.test.steps[1].uses).toBe(
      'pnpm/action-setup@v4',
    );
  });
});

describe('fillSections', () => {
  const flags = { on: true, off: false };

  it('keeps {{#flag}} sections when the flag is set and {{^flag}} ones when it is not', () => {
    const text =
      'a\n{{#on}}\nb\n{{/on}}\n{{^on}}\nc\n{{/on}}\n{{#off}}\nd\n{{/off}}\ne {{^off}}f{{/off}}\n';
    expect(fillSections(text, flags, 'x.tmpl')).toBe('a\nb\ne f\n');
  });

  it('fills a section of another flag inside a kept one', () => {
    const text = '{{#on}}\na\n{{^off}}\nb\n{{/off}}\n{{/on}}\n';
    expect(fillSections(text, flags, 'x.tmpl')).toBe('a\nb\n');
  });

  it('refuses an unknown flag and an unbalanced marker, naming the template', () => {
    expect(() => fillSections('{{#nope}}a{{/nope}}', flags, 'x.tmpl')).toThrow(
      'x.tmpl: unknown section {{#nope}}',
    );
    expect(() => fillSections('{{#on}}a', flags, 'x.tmpl')).toThrow(
      'x.tmpl: unbalanced section marker {{#on}}',
    );
  });
});
