/**
 * The files of a new operator: the data files under the package's templates/ directory
 * (`*.tmpl`), with `{{placeholder}}`s in their paths and contents filled from an
 * {@link OperatorSpec} and the workspace's dependency versions.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findUpwards } from '../operator-project.js';
import type { OperatorSpec } from './operator-spec.js';

/** One file to write: its path (relative, with `/`) and content. */
export interface TemplateFile {
  path: string;
  content: string;
}

/**
 * The package's templates directory (templates/ beside src/ and dist/, found upwards from this
 * module so that it works from the source and from the bundle).
 *
 * @throws {Error} when the package was installed without it (a packaging bug).
 */
export function templatesDirectory(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const root = findUpwards(here, (directory) =>
    existsSync(join(directory, 'templates', 'operator')),
  );
  if (root === undefined) {
    throw new Error(`@ops/operator-cli has no templates/operator directory above ${here}`);
  }
  return join(root, 'templates');
}

/** The values of every placeholder but `versionOf:<package>`. */
export function placeholderValues(spec: OperatorSpec): Record<string, string> {
  const namespaced = spec.scope === 'Namespaced';
  return {
    name: spec.name,
    group: spec.group,
    version: spec.version,
    versionPascal: `${spec.version.charAt(0).toUpperCase()}${spec.version.slice(1)}`,
    hubVersion: spec.hubVersion ?? spec.version,
    kind: spec.kind,
    plural: spec.plural,
    singular: spec.singular,
    scope: spec.scope,
    scopeWords: namespaced ? 'namespaced' : 'cluster-scoped',
    kindFile: spec.kindFile,
    kindCamel: spec.kindCamel,
    kindPlural: spec.kindPlural,
    operatorCamel: spec.operatorCamel,
    groupDashed: spec.group.replaceAll('.', '-'),
    sampleFile: `${spec.group.split('.')[0]}_${spec.version}_${spec.singular}.yaml`,
    sampleNamespace: namespaced ? '\n  namespace: default' : '',
    sampleNamespaceInline: namespaced ? ", namespace: 'default'" : '',
    ...packageManagerValues(spec.packageManager),
    // Literal text a placeholder cannot be: a path starting with a dot (npm pack leaves out
    // .gitignore), and GitHub Actions' own `${{ ... }}` expressions.
    dot: '.',
    open: '{{',
    close: '}}',
  };
}

/**
 * The commands of `packageManager` the templates name: `{{pm}}` (npm, pnpm), `{{run}}` (npm
 * run, pnpm run), `{{exec}}` (npx, pnpm exec), `{{install}}` (npm install, pnpm install),
 * `{{ciInstall}}` (the lockfile's install, for CI and images) and `{{lockfile}}`.
 */
export function packageManagerValues(packageManager: 'npm' | 'pnpm'): Record<string, string> {
  return packageManager === 'npm'
    ? {
        pm: 'npm',
        run: 'npm run',
        exec: 'npx',
        install: 'npm install',
        ciInstall: 'npm ci',
        lockfile: 'package-lock.json',
      }
    : {
        pm: 'pnpm',
        run: 'pnpm run',
        exec: 'pnpm exec',
        install: 'pnpm install',
        ciInstall: 'pnpm install --frozen-lockfile',
        lockfile: 'pnpm-lock.yaml',
      };
}

/**
 * The switches of `{{#flag}}`/`{{^flag}}` sections: `webhooks` (admission webhooks),
 * `conversion` (a conversion webhook), `webhookServer` (either: the manager serves webhooks,
 * behind a Service, with a certificate), `namespaced`, `workspace` and `pnpm`.
 */
export function sectionFlags(spec: OperatorSpec): Record<string, boolean> {
  const conversion = spec.conversion === true;
  return {
    webhooks: spec.webhooks,
    conversion,
    webhookServer: spec.webhooks || conversion,
    namespaced: spec.scope === 'Namespaced',
    workspace: spec.layout === 'workspace',
    pnpm: spec.packageManager === 'pnpm',
  };
}

const sectionPattern =
  /\{\{([#^])([a-zA-Z]+)\}\}\n?([\s\S]*?)(?:(?<=\n)\{\{\/\2\}\}\n?|\{\{\/\2\}\})/g;

/**
 * Keeps or drops `text`'s sections: `{{#flag}}...{{/flag}}` is kept when `flags[flag]` is
 * true, `{{^flag}}...{{/flag}}` when it is false. A marker alone on its line takes its line
 * break with it, so sections leave no blank lines. A section may hold sections of other flags
 * (not of its own).
 *
 * @throws {Error} on a flag it does not know, or a section left open (a template bug, named
 * with `where`).
 */
export function fillSections(
  text: string,
  flags: Readonly<Record<string, boolean>>,
  where: string,
): string {
  let filled = text;
  // A section of another flag inside a kept one is filled by the next pass.
  for (let previous = ''; previous !== filled; ) {
    previous = filled;
    filled = filled.replace(sectionPattern, (_, sign: string, flag: string, body: string) => {
      const value = flags[flag];
      if (value === undefined) throw new Error(`${where}: unknown section {{${sign}${flag}}}`);
      return value === (sign === '#') ? body : '';
    });
  }
  const open = /\{\{[#^/]([a-zA-Z]+)\}\}/.exec(filled);
  if (open !== null) throw new Error(`${where}: unbalanced section marker ${open[0]}`);
  return filled;
}

/**
 * Fills `text`'s placeholders: `{{key}}` from `values`, `{{versionOf:<package>}}` from
 * `versionOf`.
 *
 * @throws {Error} on a placeholder it does not know (a template bug, named with `where`).
 */
export function fillPlaceholders(
  text: string,
  values: Readonly<Record<string, string>>,
  versionOf: (dependency: string) => string,
  where: string,
): string {
  return text.replace(/\{\{([^{}]+)\}\}/g, (_, key: string) => {
    if (key.startsWith('versionOf:')) return versionOf(key.slice('versionOf:'.length));
    const value = values[key];
    if (value === undefined) throw new Error(`${where}: unknown placeholder {{${key}}}`);
    return value;
  });
}

/**
 * Every file of templates/`template` (a directory, e.g. `operator`) filled for `spec`, in a
 * stable order; paths are relative to the directory the files go to. A template whose
 * sections leave nothing (e.g. all `{{#pnpm}}...{{/pnpm}}` for an npm project) writes no file.
 */
export function renderTemplates(
  template: string,
  spec: OperatorSpec,
  versionOf: (dependency: string) => string,
  directory: string = templatesDirectory(),
): TemplateFile[] {
  const base = join(directory, template);
  const values = placeholderValues(spec);
  const flags = sectionFlags(spec);
  const files: TemplateFile[] = [];
  const walk = (current: string) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.tmpl')) {
        const where = relative(directory, path);
        const target = relative(base, path).slice(0, -'.tmpl'.length).split(sep).join('/');
        const filled = fillSections(readFileSync(path, 'utf8'), flags, where);
        // A template that is one section, dropped, is a file only some projects have.
        if (filled === '') continue;
        files.push({
          path: fillPlaceholders(target, values, versionOf, where),
          content: fillPlaceholders(filled, values, versionOf, where),
        });
      }
    }
  };
  walk(base);
  return files.sort((a, b) => a.path.localeCompare(b.path));
}

/**
 * The files one kind adds to an operator (`ops-operator create api`): templates/api, its API
 * type, controller, sample, editor and viewer roles and end-to-end test.
 */
export function renderApiTemplates(
  spec: OperatorSpec,
  directory: string = templatesDirectory(),
): TemplateFile[] {
  return renderTemplates('api', spec, noVersions, directory);
}

/**
 * The files of a kind's admission webhooks (`ops-operator create webhook`): templates/webhook,
 * its defaulting and validating webhooks, their unit test and their end-to-end test.
 */
export function renderWebhookTemplates(
  spec: OperatorSpec,
  directory: string = templatesDirectory(),
): TemplateFile[] {
  return renderTemplates('webhook', spec, noVersions, directory);
}

/**
 * The operator-wide webhook configuration (templates/operator-webhooks): config/webhook,
 * config/certmanager, config/default-no-certmanager and config/self-managed-certs; for an
 * operator whose only webhook is a conversion webhook (`spec.conversion` without
 * `spec.webhooks`), config/webhook holds the Service alone.
 */
export function renderWebhookConfigTemplates(
  spec: OperatorSpec,
  directory: string = templatesDirectory(),
): TemplateFile[] {
  return renderTemplates('operator-webhooks', spec, noVersions, directory);
}

/**
 * The files of another version of an existing kind (`ops-operator create api --version v2`):
 * templates/version, the version's schema and its conversion to and from `spec.hubVersion`.
 */
export function renderVersionTemplates(
  spec: OperatorSpec,
  directory: string = templatesDirectory(),
): TemplateFile[] {
  return renderTemplates('version', spec, noVersions, directory);
}

/**
 * The files of a kind's conversion webhook (`ops-operator create webhook --conversion`):
 * templates/conversion, its `defineConversion` and config/crd's kustomize configuration for
 * the conversion webhook's Service.
 */
export function renderConversionTemplates(
  spec: OperatorSpec,
  directory: string = templatesDirectory(),
): TemplateFile[] {
  return renderTemplates('conversion', spec, noVersions, directory);
}

function noVersions(dependency: string): string {
  throw new Error(`a kind's templates name no dependency versions, but ask for ${dependency}`);
}

/**
 * The files of a new operator, in a stable order: the project (templates/operator), its first
 * kind (templates/api, as `create api` writes it), and when `spec.webhooks` the kind's
 * webhooks and their configuration (templates/webhook and templates/operator-webhooks, as
 * `create webhook` writes them); a standalone project also gets templates/standalone (its
 * workflow, lint config, ignore files). The shared files switch with `{{#webhooks}}`,
 * `{{#workspace}}` and `{{#pnpm}}` sections.
 */
export function renderOperatorTemplates(
  spec: OperatorSpec,
  versionOf: (dependency: string) => string,
  directory: string = templatesDirectory(),
): TemplateFile[] {
  const files = [
    ...renderTemplates('operator', spec, versionOf, directory),
    ...renderApiTemplates(spec, directory),
  ];
  if (spec.webhooks) {
    files.push(...renderWebhookConfigTemplates(spec, directory));
    files.push(...renderWebhookTemplates(spec, directory));
  }
  if (spec.layout === 'standalone') {
    files.push(...renderTemplates('standalone', spec, versionOf, directory));
  }
  return files.sort((a, b) => a.path.localeCompare(b.path));
}
