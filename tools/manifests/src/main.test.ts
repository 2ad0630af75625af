import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineCustomResource } from '@ops/core/crd';
import { Type } from '@sinclair/typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import {
  expectedApplicationYaml,
  expectedRoleYaml,
  fixtureModule,
  fixturePaths,
  workDirectory,
  writeFixture,
} from '../test/work-directory.js';
import { main } from './main.js';
import { generatedHeader } from './render-manifests.js';

const work = workDirectory('main');
afterAll(() => work.remove());

/** Runs the command in-process with `cwd`, capturing its output. */
async function run(argv: string[], cwd: string) {
  let stdout = '';
  let stderr = '';
  const status = await main(argv, {
    cwd,
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
  });
  return { status, stdout, stderr };
}

let counter = 0;
/** A fresh operator directory with the fixture module at dist/manifests.mjs (unique path: Node caches modules). */
function operator(variant?: string): { root: string; module: string } {
  counter++;
  const root = join(work.path, `operator-${counter}`);
  writeFixture(root, 'dist/manifests.mjs', fixtureModule(variant));
  return { root, module: 'dist/manifests.mjs' };
}

describe('ops-manifests', () => {
  let root: string;
  let first: Awaited<ReturnType<typeof run>>;

  beforeAll(async () => {
    const made = operator();
    root = made.root;
    first = await run(['--module', made.module], root);
  });

  it('writes a CRD per kind and the role into the operator root', () => {
    expect(first).toEqual({
      status: 0,
      stdout: fixturePaths.map((path) => `created   ${path}\n`).join(''),
      stderr: '',
    });
    for (const path of fixturePaths) expect(existsSync(join(root, path))).toBe(true);
  });

  it('writes the ClusterRole kubebuilder would, named manager-role', () => {
    expect(readFileSync(join(root, 'config/rbac/role.yaml'), 'utf8')).toBe(expectedRoleYaml);
  });

  it('writes CRD YAML that parses back to the definition', async () => {
    const { application, balancer } = (await import(join(root, 'dist/manifests.mjs'))) as {
      application: ReturnType<typeof defineCustomResource>;
      balancer: ReturnType<typeof defineCustomResource>;
    };
    for (const [definition, path] of [
      [application, fixturePaths[0]],
      [balancer, fixturePaths[1]],
    ] as const) {
      const text = readFileSync(join(root, path ?? ''), 'utf8');
      expect(
        text.startsWith(`${generatedHeader}\n---\napiVersion: apiextensions.k8s.io/v1\n`),
      ).toBe(true);
      const documents = parseAllDocuments(text);
      expect(documents).toHaveLength(1);
      expect(documents[0]?.errors).toEqual([]);
      expect(parse(text)).toEqual(definition.crd());
    }
    expect(readFileSync(join(root, fixturePaths[0] ?? ''), 'utf8')).toBe(expectedApplicationYaml);
    const balancerYaml = readFileSync(join(root, fixturePaths[1] ?? ''), 'utf8');
    expect(balancerYaml).toContain('  scope: Cluster\n');
    expect(balancerYaml).toContain(
      [
        '                    targetPort:',
        '                      anyOf:',
        '                      - type: integer',
        '                      - type: string',
        '                      x-kubernetes-int-or-string: true',
      ].join('\n'),
    );
  });

  it('leaves unchanged files alone and reports them', async () => {
    const before = readFileSync(join(root, 'config/rbac/role.yaml'), 'utf8');
    const again = await run(['--module', 'dist/manifests.mjs'], root);
    expect(again.status).toBe(0);
    expect(again.stdout).toBe(fixturePaths.map((path) => `unchanged ${path}\n`).join(''));
    expect(readFileSync(join(root, 'config/rbac/role.yaml'), 'utf8')).toBe(before);
  });

  it('--check passes when everything is up to date', async () => {
    const check = await run(['--module', 'dist/manifests.mjs', '--check'], root);
    expect(check).toEqual({
      status: 0,
      stdout: 'ops-manifests: 6 file(s) up to date\n',
      stderr: '',
    });
  });

  it('--check fails on a changed file, prints its diff and writes nothing', async () => {
    const path = join(root, 'config/rbac/role.yaml');
    const edited = expectedRoleYaml.replace(
      '  - coordination.k8s.io\n',
      '  - coordination.k8s.io.old\n',
    );
    writeFileSync(path, edited);
    const check = await run(['--module', 'dist/manifests.mjs', '--check'], root);
    expect(check.status).toBe(1);
    expect(check.stdout).toBe(
      [
        '--- a/config/rbac/role.yaml',
        '+++ b/config/rbac/role.yaml',
        '@@ -26,7 +26,7 @@',
        '   - update',
        '   - watch',
        ' - apiGroups:',
        '-  - coordination.k8s.io.old',
        '+  - coordination.k8s.io',
        '   resources:',
        '   - leases',
        '   verbs:',
        '',
      ].join('\n'),
    );
    expect(check.stderr).toBe(
      'ops-manifests: 1 generated file(s) out of date:\n  config/rbac/role.yaml differs\nRegenerate with: ops-manifests --module dist/manifests.mjs\n',
    );
    expect(readFileSync(path, 'utf8')).toBe(edited);
    // Regenerating repairs it.
    expect((await run(['-m', 'dist/manifests.mjs'], root)).stdout).toContain(
      'updated   config/rbac/role.yaml\n',
    );
    expect(readFileSync(path, 'utf8')).toBe(expectedRoleYaml);
  });
});

describe('ops-manifests with --out and --check', () => {
  it('reports missing files when nothing was generated yet', async () => {
    const { root, module } = operator();
    const check = await run(['--module', join(root, module), '--out', 'deploy', '--check'], root);
    expect(check.status).toBe(1);
    expect(check.stdout).toContain('--- /dev/null\n+++ b/config/rbac/role.yaml\n@@ -0,0 +1,');
    expect(check.stderr).toContain('  deploy/config/rbac/role.yaml is missing\n');
    expect(check.stderr).toContain('--out deploy');
    expect(existsSync(join(root, 'deploy'))).toBe(false);
  });

  it('detects a changed definition, and removes CRDs it generated that are no longer declared', async () => {
    const old = operator();
    expect((await run(['--module', old.module], old.root)).status).toBe(0);
    // A CRD written by hand (no header) stays; a generated one of a removed kind is stale.
    writeFixture(
      old.root,
      'config/crd/bases/hand_written.yaml',
      'kind: CustomResourceDefinition\n',
    );
    writeFixture(
      old.root,
      'config/crd/bases/example.com_gone.yaml',
      `${generatedHeader}\n---\nkind: CustomResourceDefinition\n`,
    );
    // The same operator after the Application's description changed.
    const changed = operator('The image to run.');
    writeFixture(
      old.root,
      'dist/manifests-v2.mjs',
      readFileSync(join(changed.root, changed.module), 'utf8'),
    );

    const check = await run(['--module', 'dist/manifests-v2.mjs', '--check'], old.root);
    expect(check.status).toBe(1);
    expect(check.stdout).toMatch(
      /^- {16}description: The container image\.\n\+ {16}description: The image to run\.$/m,
    );
    expect(check.stdout).toContain('--- a/config/crd/bases/example.com_gone.yaml\n+++ /dev/null\n');
    expect(check.stderr).toContain(
      '  config/crd/bases/core.crd.lixueduan.com_applications.yaml differs\n  config/crd/bases/example.com_gone.yaml is stale\n',
    );

    const write = await run(['--module', 'dist/manifests-v2.mjs'], old.root);
    expect(write.stdout).toContain(
      'updated   config/crd/bases/core.crd.lixueduan.com_applications.yaml\n',
    );
    expect(write.stdout).toContain('removed   config/crd/bases/example.com_gone.yaml\n');
    expect(existsSync(join(old.root, 'config/crd/bases/example.com_gone.yaml'))).toBe(false);
    expect(existsSync(join(old.root, 'config/crd/bases/hand_written.yaml'))).toBe(true);
    expect((await run(['--module', 'dist/manifests-v2.mjs', '--check'], old.root)).status).toBe(0);
  });

  it('uses rbac.roleName for the ClusterRole', async () => {
    const root = join(work.path, 'role-name');
    writeFixture(
      root,
      'manifests.mjs',
      `export const customResources = [];
export const rbac = { roleName: 'balancer-manager', rules: [{ nonResourceURLs: ['/metrics'], verbs: ['get'] }] };
`,
    );
    expect((await run(['--module', 'manifests.mjs'], root)).stdout).toBe(
      [
        'created   config/rbac/role.yaml',
        'created   config/rbac/metrics_auth_role.yaml',
        'created   config/rbac/metrics_auth_role_binding.yaml',
        'created   config/rbac/metrics_reader_role.yaml',
        '',
      ].join('\n'),
    );
    expect(readFileSync(join(root, 'config/rbac/role.yaml'), 'utf8')).toBe(
      `${generatedHeader}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: balancer-manager
rules:
- nonResourceURLs:
  - /metrics
  verbs:
  - get
`,
    );
  });
});

describe('ops-manifests errors', () => {
  const root = join(work.path, 'errors');

  it('prints help', async () => {
    const help = await run(['--help'], root);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^Usage: ops-manifests --module <path>/);
  });

  it.each([
    [[], /--module is required/],
    [['--module'], /argument missing/],
    [['--module', 'a.js', '--force'], /Unknown option '--force'/],
    [['--module', 'a.js', 'extra'], /positional argument/],
  ])('rejects the arguments %j with usage, status 2', async (argv, message) => {
    const result = await run(argv, root);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toContain('Usage: ops-manifests');
    expect(result.stdout).toBe('');
  });

  it('names a module that does not exist', async () => {
    const result = await run(['--module', 'dist/missing.js'], root);
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(
      `ops-manifests: cannot read module ${join(root, 'dist/missing.js')}: no such file (for a TypeScript operator, run its build first)\n`,
    );
  });

  it('refuses TypeScript and other extensions', async () => {
    expect((await run(['--module', 'src/manifests.ts'], root)).stderr).toMatch(
      /it is TypeScript.*build the operator first.*dist\/manifests\.js/,
    );
    expect((await run(['--module', 'manifests.json'], root)).stderr).toMatch(/\.js or \.mjs/);
  });

  it('refuses a directory', async () => {
    writeFixture(root, 'dir.js/file', '');
    expect((await run(['--module', 'dir.js'], root)).stderr).toMatch(/dir\.js is not a file/);
  });

  it.each([
    ['export const rbac = { rules: [] };', /does not export `customResources`/],
    [
      'export const customResources = {}; export const rbac = { rules: [] };',
      /`customResources` must be an array of definitions, got an object with no keys/,
    ],
    [
      'export const customResources = [{ kind: "Application" }]; export const rbac = { rules: [] };',
      /`customResources\[0\]` is not a definition made with defineCustomResource.*keys kind/,
    ],
    ['export const customResources = [];', /does not export `rbac`/],
    [
      'export const customResources = []; export const rbac = [];',
      /`rbac` must be an object \{ roleName\?, rules \}, got an array of 0/,
    ],
    [
      'export const customResources = []; export const rbac = {};',
      /`rbac.rules` must be an array of PolicyRule, got undefined/,
    ],
    [
      'export const customResources = []; export const rbac = { rules: [], roleName: 7 };',
      /`rbac.roleName` must be a non-empty string, got number 7/,
    ],
    [
      'export const customResources = []; export const rbac = { rules: [{ apiGroups: [""], resources: ["pods"], verbs: [] }] };',
      /`rbac.rules\[0\]`: invalid RBAC rule .*at least one verb/,
    ],
    ['throw new Error("boom");', /importing .*bad-\d+\.mjs failed: boom/],
  ])('explains a module that exports the wrong thing: %s', async (source, message) => {
    counter++;
    const name = `bad-${counter}.mjs`;
    writeFixture(root, name, source);
    const result = await run(['--module', name], root);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(message);
    if (!/boom/.test(message.source))
      expect(result.stderr).toContain('export const customResources = [application];');
  });

  it('reports a definition that throws while the module loads', async () => {
    const name = 'bad-definition.mjs';
    writeFixture(
      root,
      name,
      `import { Type } from '@sinclair/typebox';
import { defineCustomResource } from '@ops/core/crd';
export const thing = defineCustomResource({
  group: 'example.com', kind: 'Thing', plural: 'things', scope: 'Namespaced',
  versions: [{ name: 'v1', spec: Type.Object({ when: Type.Date() }) }],
});
export const customResources = [thing];
export const rbac = { rules: [] };
`,
    );
    const result = await run(['--module', name], root);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/failed: schema at spec\.when: Date is not JSON/);
  });

  it('accepts the exports on a default export', async () => {
    const target = join(work.path, 'default-export');
    writeFixture(
      target,
      'manifests.mjs',
      'export default { customResources: [], rbac: { rules: [{ apiGroups: [""], resources: ["pods"], verbs: ["get"] }] } };\n',
    );
    expect((await run(['--module', 'manifests.mjs'], target)).status).toBe(0);
  });

  it('reports an output path that cannot be written', async () => {
    const target = join(work.path, 'blocked');
    writeFixture(
      target,
      'manifests.mjs',
      'export const customResources = []; export const rbac = { rules: [] };\n',
    );
    writeFixture(target, 'config', 'a file where a directory should be');
    const result = await run(['--module', 'manifests.mjs'], target);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(
      /^ops-manifests: cannot (read|write) .*config\/rbac\/role\.yaml: a parent is not a directory\n$/,
    );
  });

  it('accepts a definition from another copy of @ops/core', () => {
    // Definitions are recognised by a Symbol.for marker, as errors are.
    const definition = defineCustomResource({
      group: 'example.com',
      kind: 'Copy',
      plural: 'copies',
      scope: 'Cluster',
      versions: [{ name: 'v1', spec: Type.Object({}) }],
    });
    const marker = Object.getOwnPropertySymbols(definition).map((symbol) => Symbol.keyFor(symbol));
    expect(marker).toEqual(['@ops/core.CustomResourceDefinition']);
  });
});

describe('ops-manifests with webhooks and self-managed certificate RBAC', () => {
  const webhookModule = `${fixtureModule()}
import { defineWebhook } from '@ops/core/webhook';

const rules = [{ apiGroups: ['core.crd.lixueduan.com'], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['applications'] }];
const allow = () => ({ allowed: true });
export const webhooks = [
  defineWebhook({ type: 'validating', name: 'vapplication-v1.lixueduan.com', path: '/validate-core-crd-lixueduan-com-v1-application', rules, handler: allow }),
  defineWebhook({ type: 'mutating', name: 'mapplication-v1.lixueduan.com', path: '/mutate-core-crd-lixueduan-com-v1-application', rules, handler: allow, timeoutSeconds: 5 }),
];
export const selfManagedCertificateRbac = {
  name: 'op-self-managed-certs-role',
  namespace: 'op-system',
  namespacedRules: [
    { apiGroups: [''], resources: ['secrets'], resourceNames: ['op-webhook-server-cert'], verbs: ['get', 'update'] },
    { apiGroups: [''], resources: ['secrets'], verbs: ['create'] },
  ],
  clusterRules: [
    { apiGroups: ['admissionregistration.k8s.io'], resources: ['validatingwebhookconfigurations'], resourceNames: ['op-validating-webhook-configuration'], verbs: ['get', 'update', 'patch'] },
  ],
};
`;
  /** One configuration as controller-gen writes it (sequences not indented, keys sorted). */
  const configurationYaml = (kind: string, name: string, path: string, extra = '') =>
    `---
apiVersion: admissionregistration.k8s.io/v1
kind: ${kind}WebhookConfiguration
metadata:
  name: ${kind.toLowerCase()}-webhook-configuration
webhooks:
- admissionReviewVersions:
  - v1
  clientConfig:
    service:
      name: webhook-service
      namespace: system
      path: ${path}
  failurePolicy: Fail
  name: ${name}
  rules:
  - apiGroups:
    - core.crd.lixueduan.com
    apiVersions:
    - v1
    operations:
    - CREATE
    - UPDATE
    resources:
    - applications
  sideEffects: None
${extra}`;
  const expectedWebhookYaml = `${generatedHeader}\n${configurationYaml(
    'Mutating',
    'mapplication-v1.lixueduan.com',
    '/mutate-core-crd-lixueduan-com-v1-application',
    '  timeoutSeconds: 5\n',
  )}${configurationYaml(
    'Validating',
    'vapplication-v1.lixueduan.com',
    '/validate-core-crd-lixueduan-com-v1-application',
  )}`;

  function webhookOperator(source = webhookModule): { root: string; module: string } {
    counter++;
    const root = join(work.path, `webhook-operator-${counter}`);
    writeFixture(root, 'dist/manifests.mjs', source);
    return { root, module: 'dist/manifests.mjs' };
  }

  it('renders config/webhook/manifests.yaml as controller-gen does, and the certificate roles', async () => {
    const { root, module } = webhookOperator();
    const result = await run(['--module', module], root);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('created   config/webhook/manifests.yaml\n');
    expect(result.stdout).toContain('created   config/self-managed-certs/role.yaml\n');
    expect(readFileSync(join(root, 'config/webhook/manifests.yaml'), 'utf8')).toBe(
      expectedWebhookYaml,
    );
    const roles = parseAllDocuments(
      readFileSync(join(root, 'config/self-managed-certs/role.yaml'), 'utf8'),
    ).map((document) => document.toJS());
    expect(roles).toEqual([
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name: 'op-self-managed-certs-role' },
        rules: [
          {
            apiGroups: ['admissionregistration.k8s.io'],
            resourceNames: ['op-validating-webhook-configuration'],
            resources: ['validatingwebhookconfigurations'],
            verbs: ['get', 'patch', 'update'],
          },
        ],
      },
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'Role',
        metadata: { name: 'op-self-managed-certs-role', namespace: 'op-system' },
        rules: [
          { apiGroups: [''], resources: ['secrets'], verbs: ['create'] },
          {
            apiGroups: [''],
            resourceNames: ['op-webhook-server-cert'],
            resources: ['secrets'],
            verbs: ['get', 'update'],
          },
        ],
      },
    ]);
    expect((await run(['--module', module, '--check'], root)).stdout).toBe(
      'ops-manifests: 8 file(s) up to date\n',
    );
  });

  it('--check reports a webhook configuration edited by hand, with its diff', async () => {
    const { root, module } = webhookOperator();
    await run(['--module', module], root);
    const path = join(root, 'config/webhook/manifests.yaml');
    writeFileSync(
      path,
      expectedWebhookYaml.replace('failurePolicy: Fail', 'failurePolicy: Ignore'),
    );
    const check = await run(['--module', module, '--check'], root);
    expect(check.status).toBe(1);
    expect(check.stdout).toContain('--- a/config/webhook/manifests.yaml\n');
    expect(check.stdout).toContain('-  failurePolicy: Ignore\n+  failurePolicy: Fail\n');
    expect(check.stderr).toBe(
      'ops-manifests: 1 generated file(s) out of date:\n  config/webhook/manifests.yaml differs\nRegenerate with: ops-manifests --module dist/manifests.mjs\n',
    );
  });

  it('writes no webhook file without webhooks; --check reports it missing once they are declared', async () => {
    const { root, module } = webhookOperator(fixtureModule());
    await run(['--module', module], root);
    const next = webhookOperator(webhookModule);
    await run(['--module', next.module], next.root);
    rmSync(join(next.root, 'config/webhook'), { recursive: true });
    const check = await run(['--module', next.module, '--check'], next.root);
    expect(check.status).toBe(1);
    expect(check.stderr).toContain('  config/webhook/manifests.yaml is missing\n');
    expect(existsSync(join(root, 'config/webhook/manifests.yaml'))).toBe(false);
  });

  it('renders a module rebuilt at the same path since this process loaded it, not the cached one', async () => {
    const { root, module } = operator();
    expect((await run(['--module', module], root)).status).toBe(0);
    writeFixture(root, module, fixtureModule('The rebuilt image.'));
    const rebuilt = await run(['--module', module], root);
    expect(rebuilt.status, rebuilt.stderr).toBe(0);
    expect(rebuilt.stdout).toContain(`updated   ${fixturePaths[0]}\n`);
    expect(readFileSync(join(root, fixturePaths[0] ?? ''), 'utf8')).toContain(
      'description: The rebuilt image.',
    );
  });

  it('refuses webhooks that share a path, naming both', async () => {
    const { root, module } = webhookOperator(
      webhookModule.replace(
        "'/mutate-core-crd-lixueduan-com-v1-application'",
        "'/validate-core-crd-lixueduan-com-v1-application'",
      ),
    );
    const result = await run(['--module', module], root);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(
      '`webhooks`: webhooks "vapplication-v1.lixueduan.com" and "mapplication-v1.lixueduan.com" share the path /validate-core-crd-lixueduan-com-v1-application: give each webhook its own path',
    );
  });

  it('refuses a malformed selfManagedCertificateRbac', async () => {
    const { root, module } = webhookOperator(
      webhookModule.replace("namespace: 'op-system',", 'namespace: 3,'),
    );
    const result = await run(['--module', module], root);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(
      '`selfManagedCertificateRbac.namespace` must be a non-empty string (make the export with selfManagedCertificateRbac from @ops/core), got number 3',
    );
  });
});

describe('ops-manifests with an `operator` export', () => {
  /** A module whose operator's controller reconciles Widgets and owns what `owns` lists. */
  function operatorModule(
    owns: string,
    forKind = "{ apiVersion: 'example.com/v1', kind: 'Widget' }",
  ) {
    return `import { Type } from '@sinclair/typebox';
import { defineCustomResource } from '@ops/core/crd';
export const widget = defineCustomResource({
  group: 'example.com', kind: 'Widget', plural: 'widgets', scope: 'Namespaced',
  versions: [{ name: 'v1', spec: Type.Object({}) }],
});
export const customResources = [widget];
export const rbac = { rules: [{ apiGroups: ['example.com'], resources: ['widgets'], verbs: ['list', 'watch'] }] };
export const operator = {
  name: 'widget-operator',
  leaderElectionId: 'widget-operator.example.com',
  setup: (manager) => {
    manager.controller('widget').for(${forKind})${owns}.complete(async () => undefined);
  },
};
`;
  }

  function module(source: string): { root: string; module: string } {
    counter++;
    const root = join(work.path, `owner-operator-${counter}`);
    writeFixture(root, 'dist/manifests.mjs', source);
    return { root, module: 'dist/manifests.mjs' };
  }

  /** Runs the command on `source`, expects exit status 2 and returns what it printed. */
  async function refusal(source: string): Promise<string> {
    const made = module(source);
    const result = await run(['--module', made.module], made.root);
    expect(result.status).toBe(2);
    return result.stderr;
  }

  async function roleRules(source: string): Promise<unknown> {
    const made = module(source);
    const result = await run(['--module', made.module], made.root);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    return parse(readFileSync(join(made.root, 'config/rbac/role.yaml'), 'utf8')).rules;
  }

  it('adds update on <plural>/finalizers for a controller that owns with controller references, and nothing else', async () => {
    expect(
      await roleRules(operatorModule(".owns({ apiVersion: 'apps/v1', kind: 'Deployment' })")),
    ).toEqual([
      { apiGroups: ['example.com'], resources: ['widgets'], verbs: ['list', 'watch'] },
      { apiGroups: ['example.com'], resources: ['widgets/finalizers'], verbs: ['update'] },
    ]);
  });

  it('adds nothing for a controller that owns nothing, or owns without controller references', async () => {
    const declared = [
      { apiGroups: ['example.com'], resources: ['widgets'], verbs: ['list', 'watch'] },
    ];
    expect(await roleRules(operatorModule(''))).toEqual(declared);
    expect(
      await roleRules(
        operatorModule(".owns({ apiVersion: 'v1', kind: 'Secret' }, { onlyController: false })"),
      ),
    ).toEqual(declared);
  });

  it('explains an owning controller whose kind is not among customResources', async () => {
    const stderr = await refusal(
      operatorModule(
        ".owns({ apiVersion: 'v1', kind: 'ConfigMap' })",
        "{ apiVersion: 'apps/v1', kind: 'Deployment' }",
      ),
    );
    expect(stderr).toContain(
      'ops-manifests: dist/manifests.mjs: controller widget reconciles Deployment (apps/v1) and owns ConfigMap with controller references, so it needs update on the finalizers of Deployment, but Deployment is not among the custom resources given (Widget.example.com): list its definition (defineCustomResource) in customResources',
    );
  });

  it('names the operator when its setup fails, and refuses an operator export that is not one', async () => {
    const failed = await refusal(
      operatorModule('').replace(
        'setup: (manager) => {',
        "setup: (manager) => { throw new Error('needs the cluster');",
      ),
    );
    expect(failed).toContain(
      'ops-manifests: dist/manifests.mjs: `operator`: reading the controllers of widget-operator: its setup failed without a cluster (needs the cluster)',
    );
    const refused = await refusal(
      operatorModule('').replace("name: 'widget-operator',", 'name: 7,'),
    );
    expect(refused).toContain('`operator.name` must be a non-empty string, got number 7');
  });
});
