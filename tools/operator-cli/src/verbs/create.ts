/**
 * `ops-operator create api` and `ops-operator create webhook`: kubebuilder's verbs of the
 * same names for an operator that exists (standalone or in this repository's workspace).
 * Both write from the templates `init` and `new` use, plan every change before writing any,
 * never overwrite a file, and say "nothing changed" when run again.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import YAML from 'yaml';
import { OperatorCliError } from '../errors/operator-cli-error.js';
import { findUpwards, type OperatorProject } from '../operator-project.js';
import { runCommand } from '../run-command.js';
import {
  kebabCase,
  kindArgumentOptions,
  type OperatorSpec,
  type OperatorSpecInput,
  operatorSpec,
  type PackageManager,
} from '../scaffold/operator-spec.js';
import {
  packageManagerValues,
  placeholderValues,
  renderApiTemplates,
  renderConversionTemplates,
  renderTemplates,
  renderVersionTemplates,
  renderWebhookConfigTemplates,
  renderWebhookTemplates,
  type TemplateFile,
} from '../scaffold/operator-templates.js';
import {
  addImport,
  addKustomizeResource,
  addLineAfter,
  addToArray,
  applyTemplateChange,
  type EditResult,
} from '../scaffold/source-edits.js';
import type { Verb, VerbContext } from '../verb.js';
import { detectPackageManager } from './init.js';
import { buildOperator, generateOperatorArtifacts } from './manifests.js';

/** Every change a `create` verb makes, planned before anything is written. */
export interface CreatePlan {
  /** New files (relative to the operator), written exclusively. */
  create: TemplateFile[];
  /** Existing files, with their new content. */
  edit: TemplateFile[];
  /** What is there already (files and insertions), for the report. */
  present: string[];
}

/** What a `create` verb did. */
export interface CreateResult {
  /** The files it wrote or changed, relative to the operator; empty when nothing changed. */
  changed: string[];
  /** What was there already. */
  present: string[];
}

/** How an existing operator is laid out: what its templates are filled with. */
export function projectSettings(
  project: OperatorProject,
  env: NodeJS.ProcessEnv,
): Pick<OperatorSpecInput, 'layout' | 'packageManager' | 'name' | 'existing'> {
  const manifest = JSON.parse(readFileSync(join(project.root, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
  };
  const workspace = manifest.dependencies?.['@ops/core']?.startsWith('workspace:') === true;
  let packageManager: PackageManager;
  const lockfileAt = (file: string) =>
    findUpwards(project.root, (directory) => existsSync(join(directory, file))) !== undefined;
  if (workspace || lockfileAt('pnpm-lock.yaml')) packageManager = 'pnpm';
  else if (lockfileAt('package-lock.json')) packageManager = 'npm';
  else packageManager = detectPackageManager(undefined, env);
  return {
    name: project.name,
    existing: true,
    layout: workspace ? 'workspace' : 'standalone',
    packageManager,
  };
}

/** The name `src/operator.ts` exports its OperatorDefinition under, or undefined. */
export function operatorExport(operatorSource: string): string | undefined {
  return /^export const (\w+)\s*:\s*OperatorDefinition\b/m.exec(operatorSource)?.[1];
}

function readText(project: OperatorProject, path: string): string {
  const full = join(project.root, path);
  if (!existsSync(full)) {
    throw new OperatorCliError(
      `${full} does not exist: ops-operator create works on an operator laid out as ops-operator init writes it (src/operator.ts, src/manifests.ts, config/)`,
    );
  }
  return readFileSync(full, 'utf8');
}

/** Collects edits to existing files and new files, refusing once with every problem. */
class Planner {
  readonly plan: CreatePlan = { create: [], edit: [], present: [] };
  readonly problems: string[] = [];
  readonly #texts = new Map<string, string>();
  /** The files of `plan.create`, by path: later edits change what they will be written with. */
  readonly #created = new Map<string, TemplateFile>();

  constructor(readonly project: OperatorProject) {}

  text(path: string): string {
    const known = this.#created.get(path)?.content ?? this.#texts.get(path);
    if (known !== undefined) return known;
    const text = readText(this.project, path);
    this.#texts.set(path, text);
    return text;
  }

  /** Whether the operator has `path`, or the plan creates it. */
  has(path: string): boolean {
    return this.#created.has(path) || existsSync(join(this.project.root, path));
  }

  /** Writes `file` unless it exists (then it is the user's, kept as it is). */
  add(file: TemplateFile): void {
    if (this.has(file.path)) this.plan.present.push(file.path);
    else {
      const planned = { ...file };
      this.plan.create.push(planned);
      this.#created.set(file.path, planned);
    }
  }

  edit(path: string, what: string, change: (text: string) => EditResult): void {
    const result = change(this.text(path));
    if (result.kind === 'present') this.plan.present.push(`${path}: ${what}`);
    else if (result.kind === 'missing') this.problems.push(result.instruction);
    else {
      const planned = this.#created.get(path);
      if (planned !== undefined) planned.content = result.text;
      else this.#texts.set(path, result.text);
    }
  }

  finish(): CreatePlan {
    if (this.problems.length > 0) {
      throw new OperatorCliError(
        `nothing was written: these files were changed so that ops-operator cannot find where to add to them. Make these changes by hand, then run it again:\n${this.problems.join('\n')}`,
      );
    }
    for (const [path, text] of this.#texts) {
      if (text !== readFileSync(join(this.project.root, path), 'utf8')) {
        this.plan.edit.push({ path, content: text });
      }
    }
    return this.plan;
  }
}

/**
 * The changes `create api` makes for `spec`'s kind: its API type, controller, sample, editor
 * and viewer roles and end-to-end test (templates/api), the controller's registration in
 * src/operator.ts, the resource and its rules in src/manifests.ts, and the CRD, roles and
 * sample in their kustomizations. For a kind that exists in another version, another version
 * of it instead (see {@link planCreateVersion}).
 *
 * @throws {OperatorCliError} when a file lost the place to insert (with the exact lines to
 * add).
 */
export function planCreateApi(project: OperatorProject, spec: OperatorSpec): CreatePlan {
  const hub = definitionVersionOf(project, spec.kindFile);
  if (hub !== undefined && hub !== spec.version) return planCreateVersion(project, spec, hub);
  const planner = new Planner(project);
  for (const file of renderApiTemplates({ ...spec, webhooks: false })) planner.add(file);
  const values = placeholderValues(spec);
  planner.edit('src/operator.ts', `imports add${spec.kind}Controller`, (text) =>
    addImport(
      text,
      `import { add${spec.kind}Controller } from './controller/${spec.kindFile}.js';`,
    ),
  );
  planner.edit('src/operator.ts', `setup calls add${spec.kind}Controller`, (text) =>
    addLineAfter(
      text,
      `add${spec.kind}Controller(manager);`,
      /^\s*add\w+Controller\(manager\);\s*$/,
      new RegExp(`\\badd${spec.kind}Controller\\(`),
      `src/operator.ts: its setup has no line "addXController(manager);" to add after. Make setup a method that adds every controller, e.g.\n  setup(manager) {\n    addYourKindController(manager);\n    add${spec.kind}Controller(manager);\n  },`,
    ),
  );
  planner.edit('src/manifests.ts', `imports ${spec.kindCamel}Resource`, (text) =>
    addImport(
      text,
      `import { ${spec.kindCamel}Resource } from './api/${spec.version}/${spec.kindFile}.js';`,
    ),
  );
  planner.edit('src/manifests.ts', `imports ${spec.kindCamel}Rbac`, (text) =>
    addImport(text, `import { ${spec.kindCamel}Rbac } from './controller/${spec.kindFile}.js';`),
  );
  planner.edit('src/manifests.ts', `customResources has ${spec.kindCamel}Resource`, (text) =>
    addToArray(
      text,
      /export const customResources\s*=\s*\[/,
      `${spec.kindCamel}Resource`,
      'src/manifests.ts',
    ),
  );
  planner.edit('src/manifests.ts', `rbac has ${spec.kindCamel}Rbac`, (text) =>
    addToArray(
      text,
      /export const rbac\s*=\s*\{[\s\S]*?rules:\s*\[/,
      `...${spec.kindCamel}Rbac`,
      'src/manifests.ts',
    ),
  );
  const kustomize = (path: string, entry: string) =>
    planner.edit(path, `lists ${entry}`, (text) => addKustomizeResource(text, entry, path));
  kustomize('config/crd/kustomization.yaml', `bases/${spec.group}_${spec.plural}.yaml`);
  kustomize('config/rbac/kustomization.yaml', `${spec.singular}_editor_role.yaml`);
  kustomize('config/rbac/kustomization.yaml', `${spec.singular}_viewer_role.yaml`);
  kustomize('config/samples/kustomization.yaml', values.sampleFile as string);
  return planner.finish();
}

/**
 * The version whose src/api/<version>/<kind-file>.ts declares `spec`'s kind with
 * `defineCustomResource` (the storage version, as `create api` wrote it), or undefined when
 * the kind is new.
 */
function definitionVersionOf(project: OperatorProject, kindFile: string): string | undefined {
  const apiDirectory = join(project.root, 'src', 'api');
  if (!existsSync(apiDirectory)) return undefined;
  return readdirSync(apiDirectory)
    .sort()
    .find((version) => {
      const file = join(apiDirectory, version, `${kindFile}.ts`);
      return existsSync(file) && readFileSync(file, 'utf8').includes('defineCustomResource(');
    });
}

/**
 * The changes `create api --version <new>` makes for a kind that exists in `hub`: the new
 * version's schema and its conversion (templates/version, in src/api/<new>/), and the version
 * listed in the kind's `defineCustomResource` (src/api/<hub>/<kind-file>.ts). The existing
 * version stays the storage version and the hub, as kubebuilder's: the objects stored keep
 * their version, and the controller keeps reconciling it; the new one is a served spoke. The
 * conversion is served once `create webhook --conversion` has run.
 *
 * @throws {OperatorCliError} when the definition lost the place to insert.
 */
export function planCreateVersion(
  project: OperatorProject,
  spec: OperatorSpec,
  hub: string,
): CreatePlan {
  const planner = new Planner(project);
  const versioned: OperatorSpec = { ...spec, hubVersion: hub };
  for (const file of renderVersionTemplates(versioned)) planner.add(file);
  const values = placeholderValues(versioned);
  const definition = `src/api/${hub}/${spec.kindFile}.ts`;
  const version = `${spec.kindCamel}${values.versionPascal}`;
  planner.edit(definition, `imports ${version}`, (text) =>
    addImport(text, `import { ${version} } from '../${spec.version}/${spec.kindFile}.js';`),
  );
  planner.edit(definition, `versions has ${version}`, (text) =>
    addToArray(text, /\bversions:\s*\[/, version, definition),
  );
  return planner.finish();
}

/**
 * The changes `create webhook --conversion` makes for `spec`'s kind (a spoke version made by
 * `create api --version`): `conversion: 'Webhook'` in its definition, its `defineConversion`
 * in src/webhook/<kind-file>-conversion.ts (or the spoke added to the one there is),
 * registered in src/operator.ts's `conversions`; config/crd's kustomize configuration for the
 * conversion webhook's Service; and in config/default the cert-manager CA injection into the
 * CRD, which config/default-no-certmanager removes again (the self-managed certificates
 * inject into the CRDs of `conversions` themselves). An operator without webhooks gets the
 * webhook server first (see {@link planWebhookServer}): config/webhook with its Service
 * alone, both certificate modes and the manager's webhook port and certificate.
 *
 * @throws {OperatorCliError} when the version has no conversion (create api --version
 * first), src/operator.ts exports no OperatorDefinition, or a file lost the place to insert.
 */
export function planCreateConversion(project: OperatorProject, spec: OperatorSpec): CreatePlan {
  const hub = definitionVersionOf(project, spec.kindFile);
  const spokeFile = `src/api/${spec.version}/${spec.kindFile}-conversion.ts`;
  if (hub === undefined || hub === spec.version || !existsSync(join(project.root, spokeFile))) {
    throw new OperatorCliError(
      `${spec.kind} ${spec.version} has no conversion (${spokeFile}): the conversion webhook converts another version to the storage version, so add it first with ops-operator create api --group ${spec.group} --version ${spec.version} --kind ${spec.kind}`,
    );
  }
  const planner = new Planner(project);
  const exported = requireOperatorExport(planner, 'create webhook --conversion');
  const versioned: OperatorSpec = { ...spec, hubVersion: hub, operatorCamel: exported };
  const serving = webhookServing(project);
  planWebhookServer(planner, versioned, serving, serving === 'none' ? 'conversion' : serving);
  const values = placeholderValues(versioned);
  const definition = `src/api/${hub}/${spec.kindFile}.ts`;
  planner.edit(definition, "says conversion: 'Webhook'", (text) =>
    addLineAfter(
      text,
      "conversion: 'Webhook',",
      /^\s*scope:\s*'/,
      /^\s*conversion:/,
      `${definition}: add conversion: 'Webhook', to its defineCustomResource options`,
    ),
  );
  const conversion = `${spec.kindCamel}Conversion`;
  const spoke = `${spec.kindCamel}${values.versionPascal}Conversion`;
  const webhookFile = `src/webhook/${spec.kindFile}-conversion.ts`;
  for (const file of renderConversionTemplates(versioned)) {
    if (file.path === webhookFile && existsSync(join(project.root, webhookFile))) {
      planner.edit(webhookFile, `imports ${spoke}`, (text) =>
        addImport(
          text,
          `import { ${spoke} } from '../api/${spec.version}/${spec.kindFile}-conversion.js';`,
        ),
      );
      planner.edit(webhookFile, `converts ${spec.version}`, (text) =>
        addLineAfter(
          text,
          `  ${spec.version}: ${spoke},`,
          /defineConversion\(/,
          new RegExp(`^\\s*${spec.version}:`),
          `${webhookFile}: add ${spec.version}: ${spoke}, to its defineConversion`,
        ),
      );
    } else {
      planner.add(file);
    }
  }
  planner.edit('src/operator.ts', `imports ${conversion}`, (text) =>
    addImport(text, `import { ${conversion} } from './webhook/${spec.kindFile}-conversion.js';`),
  );
  planner.edit('src/operator.ts', `conversions has ${conversion}`, (text) =>
    /^\s*conversions\s*:\s*\[/m.test(text)
      ? addToArray(text, /conversions\s*:\s*\[/, conversion, 'src/operator.ts')
      : addLineAfter(
          text,
          `conversions: [${conversion}],`,
          /^\s*leaderElectionId\s*:/,
          /^\s*conversions\s*:/,
          `src/operator.ts: add to the OperatorDefinition the line\n  conversions: [${conversion}],`,
        ),
  );
  planner.edit('config/crd/kustomization.yaml', 'lists kustomizeconfig.yaml', (text) =>
    addKustomizeResource(
      text,
      'kustomizeconfig.yaml',
      'config/crd/kustomization.yaml',
      'configurations',
    ),
  );
  const crd = `${spec.plural}.${spec.group}`;
  planner.edit('config/default/kustomization.yaml', `injects the CA into ${crd}`, (text) =>
    insertOnce(text, `name: ${crd}`, certManagerCrdInjection(crd)),
  );
  planner.edit(
    'config/default-no-certmanager/kustomization.yaml',
    `removes the cert-manager annotation of ${crd}`,
    (text) => insertOnce(text, `name: ${crd}`, noCertManagerCrdPatch(crd), deploymentPatch),
  );
  return planner.finish();
}

/** The comment before config/default-no-certmanager's patch of the manager Deployment. */
const deploymentPatch = /^ {2}# The `test` operations make the build fail/;

/**
 * `text` with `addition` inserted before the first line matching `before` (appended when none
 * does), unless it holds `marker` already.
 */
function insertOnce(text: string, marker: string, addition: string, before?: RegExp): EditResult {
  if (text.includes(marker)) return { kind: 'present' };
  const lines = text.split('\n');
  const at = before === undefined ? -1 : lines.findIndex((line) => before.test(line));
  if (at >= 0) {
    lines.splice(at, 0, ...addition.replace(/\n$/, '').split('\n'));
    return { kind: 'changed', text: lines.join('\n') };
  }
  return { kind: 'changed', text: `${text.replace(/\n*$/, '\n')}${addition}` };
}

/**
 * What the operator's webhook server serves, as its config/webhook says: `none` (no
 * config/webhook/kustomization.yaml), `admission` (it lists the webhook configurations'
 * manifests.yaml) or `conversion` (the Service alone, for CRD conversion webhooks).
 */
type WebhookServing = 'none' | 'conversion' | 'admission';

/** The {@link WebhookServing} of `project`. */
function webhookServing(project: OperatorProject): WebhookServing {
  const path = join(project.root, 'config', 'webhook', 'kustomization.yaml');
  if (!existsSync(path)) return 'none';
  const resources = (YAML.parse(readFileSync(path, 'utf8')) as { resources?: unknown } | null)
    ?.resources;
  return Array.isArray(resources) && resources.includes('manifests.yaml')
    ? 'admission'
    : 'conversion';
}

/** The files of the operator that switch with its webhooks (templates/operator's sections). */
const webhookSwitchedFiles = [
  'config/default/kustomization.yaml',
  'config/manager/manager.yaml',
  'src/manifests.ts',
  'package.json',
];

/**
 * Plans the webhook server's files going from what it serves (`from`) to `to`, both rendered
 * from the templates: templates/operator-webhooks' files are created where absent, and
 * changed by the templates' difference where `from` had them (a file `from` has no template
 * for is the user's, kept); the shared files of {@link webhookSwitchedFiles} change by the
 * difference of templates/operator's sections (`webhookServer`, `webhooks`, `conversion`).
 * Nothing when `from` is `to`.
 */
function planWebhookServer(
  planner: Planner,
  spec: OperatorSpec,
  from: WebhookServing,
  to: WebhookServing,
): void {
  if (from === to) return;
  const serving = (what: WebhookServing): OperatorSpec => ({
    ...spec,
    webhooks: what === 'admission',
    conversion: what === 'conversion',
  });
  const before = serving(from);
  const after = serving(to);
  const configBefore = from === 'none' ? [] : renderWebhookConfigTemplates(before);
  for (const file of renderWebhookConfigTemplates(after)) {
    const old = configBefore.find((candidate) => candidate.path === file.path);
    if (!planner.has(file.path) || old === undefined) planner.add(file);
    else {
      planner.edit(file.path, `serves ${to} webhooks`, (text) =>
        applyTemplateChange(text, old.content, file.content, file.path),
      );
    }
  }
  const without = renderTemplates('operator', before, keepVersion);
  const withWebhooks = renderTemplates('operator', after, keepVersion);
  for (const path of webhookSwitchedFiles) {
    const old = without.find((file) => file.path === path)?.content ?? '';
    const next = withWebhooks.find((file) => file.path === path)?.content ?? '';
    planner.edit(path, `serves ${to} webhooks`, (text) =>
      applyTemplateChange(text, old, next, path),
    );
  }
}

/**
 * The name `src/operator.ts` exports its OperatorDefinition under.
 *
 * @throws {OperatorCliError} when it exports none (`verb` registers in it).
 */
function requireOperatorExport(planner: Planner, verb: string): string {
  const exported = operatorExport(planner.text('src/operator.ts'));
  if (exported === undefined) {
    throw new OperatorCliError(
      `src/operator.ts exports no \`export const <name>: OperatorDefinition = {...}\`: ops-operator ${verb} registers in it`,
    );
  }
  return exported;
}

/**
 * The replacements that make cert-manager's CA injector fill the conversion webhook's
 * `caBundle` of CRD `crd` (the `cert-manager.io/inject-ca-from` annotation, as for the webhook
 * configurations), appended to config/default's `replacements`.
 */
function certManagerCrdInjection(crd: string): string {
  const part = (field: string, index: number) => `  - source:
      kind: Certificate
      group: cert-manager.io
      version: v1
      name: serving-cert
      fieldPath: .metadata.${field}
    targets:
      - select:
          kind: CustomResourceDefinition
          name: ${crd}
        fieldPaths:
          - .metadata.annotations.[cert-manager.io/inject-ca-from]
        options:
          delimiter: "/"
          index: ${index}
          create: true
`;
  return `  # cert-manager injects the CA into the conversion webhook of ${crd}.
${part('namespace', 0)}${part('name', 1)}`;
}

/** The patch of config/default-no-certmanager that takes CRD `crd`'s cert-manager annotation off. */
function noCertManagerCrdPatch(crd: string): string {
  return `  # The operator injects its own CA into the conversion webhook of ${crd}.
  - target:
      group: apiextensions.k8s.io
      kind: CustomResourceDefinition
      name: ${crd}
    patch: |-
      - op: remove
        path: /metadata/annotations/cert-manager.io~1inject-ca-from
`;
}

/** A kind of the operator, as its API file declares it. */
export interface DeclaredKind {
  group: string;
  plural: string;
  scope: 'Namespaced' | 'Cluster';
}

/**
 * The group, plural and scope of `kind` in `version`, read from
 * src/api/<version>/<kind-file>.ts.
 *
 * @throws {OperatorCliError} when there is no such file (naming the kinds there are, and
 * `create api`), or it does not declare them as `create api` writes them.
 */
export function declaredKind(
  project: OperatorProject,
  version: string,
  kind: string,
): DeclaredKind {
  const path = join('src', 'api', version, `${kebabCase(kind)}.ts`);
  const full = join(project.root, path);
  if (!existsSync(full)) {
    const directory = join(project.root, 'src', 'api', version);
    const known = existsSync(directory)
      ? readdirSync(directory).filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
      : [];
    throw new OperatorCliError(
      `the operator has no kind ${kind} in ${version} (no ${path}${known.length > 0 ? `; src/api/${version} has ${known.join(', ')}` : ''}): create it first with ops-operator create api --group <group> --version ${version} --kind ${kind}`,
    );
  }
  const source = readFileSync(full, 'utf8');
  const field = (name: string) => new RegExp(`\\b${name}:\\s*'([^']+)'`).exec(source)?.[1];
  const group = field('group');
  const plural = field('plural');
  const scope = field('scope');
  if (
    group === undefined ||
    plural === undefined ||
    (scope !== 'Namespaced' && scope !== 'Cluster')
  ) {
    throw new OperatorCliError(
      `${path} does not declare group, plural and scope as string literals in its defineCustomResource (as create api writes them): ops-operator cannot tell which resource the webhooks are for`,
    );
  }
  return { group, plural, scope };
}

/**
 * The changes `create webhook` makes for `spec`'s kind: its defaulting and validating
 * webhooks with their unit and end-to-end tests (templates/webhook), their registration in
 * src/operator.ts; and when the operator had no admission webhooks (none, or only a
 * conversion webhook), their configuration (templates/operator-webhooks) and what the
 * project's files switch on with webhooks (config/default, config/manager, src/manifests.ts,
 * package.json), applied as the templates' difference (see {@link planWebhookServer}).
 *
 * @throws {OperatorCliError} when src/operator.ts exports no OperatorDefinition, or a file
 * lost the place to insert (with the exact lines to add or remove).
 */
export function planCreateWebhook(project: OperatorProject, spec: OperatorSpec): CreatePlan {
  const planner = new Planner(project);
  const exported = requireOperatorExport(planner, 'create webhook');
  const webhookSpec: OperatorSpec = { ...spec, webhooks: true, operatorCamel: exported };
  for (const file of renderWebhookTemplates(webhookSpec)) planner.add(file);
  planWebhookServer(planner, webhookSpec, webhookServing(project), 'admission');
  const names = [`${spec.kindCamel}Defaulter`, `${spec.kindCamel}Validator`];
  planner.edit('src/operator.ts', `imports ${names.join(', ')}`, (text) =>
    addImport(text, `import { ${names.join(', ')} } from './webhook/${spec.kindFile}.js';`),
  );
  for (const name of names) {
    planner.edit('src/operator.ts', `webhooks has ${name}`, (text) =>
      /^\s*webhooks\s*:\s*\[/m.test(text)
        ? addToArray(text, /webhooks\s*:\s*\[/, name, 'src/operator.ts')
        : addLineAfter(
            text,
            `webhooks: [${name}],`,
            /^\s*leaderElectionId\s*:/,
            /^\s*webhooks\s*:/,
            `src/operator.ts: add to the OperatorDefinition the line\n  webhooks: [${names.join(', ')}],`,
          ),
    );
  }
  return planner.finish();
}

/** package.json's versions stay as they are: the difference applied only touches scripts. */
function keepVersion(dependency: string): string {
  return `<${dependency}>`;
}

/**
 * Writes `plan` (new files exclusively, then the edits), formats what it wrote with the
 * biome installed for the operator when there is one, and (unless `skipManifests` or nothing
 * changed) builds the operator and renders its manifests.
 */
export async function applyPlan(
  project: OperatorProject,
  plan: CreatePlan,
  options: { skipManifests?: boolean; env: NodeJS.ProcessEnv; log: (line: string) => void },
): Promise<CreateResult> {
  for (const file of plan.create) {
    const path = join(project.root, file.path);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, file.content, { flag: 'wx' });
  }
  for (const file of plan.edit) await writeFile(join(project.root, file.path), file.content);
  const changed = [...plan.create, ...plan.edit].map((file) => file.path).sort();
  if (changed.length === 0) return { changed, present: plan.present };
  const biomeRoot = findUpwards(project.root, (directory) =>
    existsSync(join(directory, 'node_modules', '.bin', 'biome')),
  );
  const code = changed.filter((path) => /\.(ts|json)$/.test(path));
  if (biomeRoot !== undefined && code.length > 0) {
    await runCommand(
      join(biomeRoot, 'node_modules', '.bin', 'biome'),
      ['check', '--write', ...code.map((path) => join(project.root, path))],
      { cwd: project.root, env: options.env, capture: true },
    );
  }
  if (!options.skipManifests) {
    options.log('building the operator and rendering its manifests');
    await buildOperator(project, options.env);
    const status = await generateOperatorArtifacts(project, {
      env: options.env,
      stdout: options.log,
      stderr: options.log,
    });
    if (status !== 0)
      throw new OperatorCliError(`ops-operator manifests exited with status ${status}`);
  }
  return { changed, present: plan.present };
}

export const createHelp = `Usage: ops-operator create api --group <group> --version <version> --kind <Kind>
                             [--namespaced | --cluster] [--plural <plural>] [--skip-manifests]
       ops-operator create webhook --version <version> --kind <Kind> [--conversion] [--skip-manifests]

Run in an operator (standalone or in this repository), as kubebuilder's verbs of the same names.

create api      a kind, in a new or the same group/version: src/api/<version>/<kind>.ts (the
                TypeBox schema), src/controller/<kind>.ts (reconciler, RBAC, add<Kind>Controller),
                its sample, editor and viewer roles and test/<kind>.e2e.test.ts; registers the
                controller in src/operator.ts, the resource and its rules in src/manifests.ts,
                and the CRD, roles and sample in config/crd, config/rbac and config/samples.
                For a kind that exists in another version: that version, a spoke served
                besides the existing storage version (which stays the hub, as kubebuilder's):
                src/api/<version>/<kind>.ts (its schema, listed in the kind's versions) and
                src/api/<version>/<kind>-conversion.ts (toHub and fromHub, typed by both).
create webhook  defaulting and validating webhooks for an existing kind: src/webhook/<kind>.ts,
                its unit test and test/<kind>-webhook.e2e.test.ts, registered in
                src/operator.ts. When the operator had none: config/webhook,
                config/certmanager (cert-manager), config/default-no-certmanager and
                config/self-managed-certs (self-managed certificates), the manager's webhook
                port and certificate volume, and the webhook-local and webhook-certs scripts.
                With --conversion: the conversion webhook of a version create api added
                (conversion: 'Webhook', src/webhook/<kind>-conversion.ts in conversions, the
                CRD's CA injection by cert-manager and by the operator itself). An operator
                without webhooks gets the same config, but config/webhook is the Service
                alone (no webhook configurations).

Then builds and renders config/crd/bases, config/rbac/role.yaml and config/webhook (as
ops-operator manifests). Nothing is overwritten: an existing file is kept as it is, and an
edit whose place is gone is refused before anything is written, with the lines to add by
hand. Running it again changes nothing and says so.

  --group           the API group, a DNS domain (batch.example.com)
  --version         the API version (v1, v1alpha1, v2beta1)
  --kind            the kind, PascalCase (MyJob)
  --namespaced      the kind's objects live in namespaces (the default)
  --cluster         the kind is cluster-scoped
  --plural          the resource name (default: the kind in lower case, made plural)
  --conversion      create webhook: the conversion webhook of --version, not admission webhooks
  --skip-manifests  write the files only (no build, no manifests)`;

export const createVerb: Verb = {
  name: 'create',
  summary: 'add a kind (create api) or its webhooks (create webhook) to this operator',
  workspace: true,
  help: createHelp,
  async run(argv, context) {
    const [what, ...rest] = argv;
    if (what !== 'api' && what !== 'webhook') {
      throw new OperatorCliError(
        `create ${what === undefined ? 'needs' : `"${what}" is not`} api or webhook: ops-operator create api ... or ops-operator create webhook ...\n\n${this.help}`,
      );
    }
    let values: ReturnType<typeof parseCreateArguments>['values'];
    try {
      values = parseCreateArguments(rest).values;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new OperatorCliError(`create ${what}: ${message}\n\n${this.help}`);
    }
    const project = context.project();
    const settings = projectSettings(project, context.env);
    let spec: OperatorSpec;
    if (what === 'api') {
      spec = operatorSpec({ ...values, ...settings });
    } else {
      if (values.version === undefined || values.kind === undefined) {
        throw new OperatorCliError(
          `create webhook: --version and --kind name the kind, e.g. --version v1 --kind MyJob\n\n${this.help}`,
        );
      }
      // A conversion's version is a spoke: the kind is declared in its definition's version.
      const declaredIn = values.conversion
        ? (definitionVersionOf(project, kebabCase(values.kind)) ?? values.version)
        : values.version;
      const declared = declaredKind(project, declaredIn, values.kind);
      if (values.group !== undefined && values.group !== declared.group) {
        throw new OperatorCliError(
          `create webhook: ${values.kind} is in group ${declared.group}, not ${values.group}`,
        );
      }
      spec = operatorSpec({
        ...settings,
        group: declared.group,
        version: values.version,
        kind: values.kind,
        plural: declared.plural,
        cluster: declared.scope === 'Cluster',
      });
    }
    const conversion = values.conversion === true;
    if (conversion && what === 'api') {
      throw new OperatorCliError(
        `create api: --conversion belongs to create webhook (create webhook --conversion --version <version> --kind <Kind>)\n\n${this.help}`,
      );
    }
    const plan =
      what === 'api'
        ? planCreateApi(project, spec)
        : conversion
          ? planCreateConversion(project, spec)
          : planCreateWebhook(project, spec);
    const result = await applyPlan(project, plan, {
      skipManifests: values['skip-manifests'] === true,
      env: context.env,
      log: (line) => context.stderr(`create ${what}: ${line.replace(/\n$/, '')}\n`),
    });
    report(context, conversion ? 'conversion' : what, spec, result);
    return 0;
  },
};

function report(
  context: VerbContext,
  what: 'api' | 'webhook' | 'conversion',
  spec: OperatorSpec,
  result: CreateResult,
): void {
  const suffix = { api: '', webhook: ' webhooks', conversion: ' conversion webhook' }[what];
  const subject = `${spec.kind} (${spec.group}/${spec.version})${suffix}`;
  if (result.changed.length === 0) {
    context.stdout(`${subject}: already in ${spec.name}; nothing changed.\n`);
    return;
  }
  const commands = packageManagerValues(spec.packageManager);
  context.stdout(
    `${subject}: wrote or changed ${result.changed.length} files:\n${result.changed.map((path) => `  ${path}`).join('\n')}\n` +
      (result.present.length > 0
        ? `kept as they were: ${result.present.length} (${result.present.slice(0, 5).join('; ')}${result.present.length > 5 ? '; ...' : ''})\n`
        : '') +
      `Next: ${commands.pm} test\n`,
  );
}

function parseCreateArguments(argv: readonly string[]) {
  return parseArgs({
    args: argv[0] === '--' ? argv.slice(1) : [...argv],
    strict: true,
    allowPositionals: false,
    options: {
      ...kindArgumentOptions,
      conversion: { type: 'boolean' },
      'skip-manifests': { type: 'boolean' },
    },
  });
}
