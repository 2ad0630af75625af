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
  };
}

/** The switches of `{{#flag}}`/`{{^flag}}` sections. */
export function sectionFlags(spec: OperatorSpec): Record<string, boolean> {
  return { webhooks: spec.webhooks, namespaced: spec.scope === 'Namespaced' };
}

const sectionPattern =
  /\{\{([#^])([a-zA-Z]+)\}\}\n?([\s\S]*?)(?:(?<=\n)\{\{\/\2\}\}\n?|\{\{\/\2\}\})/g;

/**
 * Keeps or drops `text`'s sections: `{{#flag}}...{{/flag}}` is kept when `flags[flag]` is
 * true, `{{^flag}}...{{/flag}}` when it is false. A marker alone on its line takes its line
 * break with it, so sections leave no blank lines. Sections do not nest.
 *
 * @throws {Error} on a flag it does not know, or a section left open (a template bug, named
 * with `where`).
 */
export function fillSections(
  text: string,
  flags: Readonly<Record<string, boolean>>,
  where: string,
): string {
  const filled = text.replace(sectionPattern, (_, sign: string, flag: string, body: string) => {
    const value = flags[flag];
    if (value === undefined) throw new Error(`${where}: unknown section {{${sign}${flag}}}`);
    return value === (sign === '#') ? body : '';
  });
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
 * stable order; paths are relative to the directory the files go to.
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
        files.push({
          path: fillPlaceholders(target, values, versionOf, where),
          content: fillPlaceholders(
            fillSections(readFileSync(path, 'utf8'), flags, where),
            values,
            versionOf,
            where,
          ),
        });
      }
    }
  };
  walk(base);
  return files.sort((a, b) => a.path.localeCompare(b.path));
}

/**
 * The files of a new operator: templates/operator, plus templates/operator-webhooks when
 * `spec.webhooks` (files only webhooks need; the shared files switch with `{{#webhooks}}`
 * sections), in a stable order.
 */
export function renderOperatorTemplates(
  spec: OperatorSpec,
  versionOf: (dependency: string) => string,
  directory: string = templatesDirectory(),
): TemplateFile[] {
  const files = renderTemplates('operator', spec, versionOf, directory);
  if (spec.webhooks)
    files.push(...renderTemplates('operator-webhooks', spec, versionOf, directory));
  return files.sort((a, b) => a.path.localeCompare(b.path));
}
