#!/usr/bin/env node
// Fails when one type name is declared in more than one file of the published packages and
// tools (an `interface`, or a `type` alias that spells out a shape rather than naming another
// type). Shared Kubernetes API types live once, in packages/api (`@ops/api`); a package that
// needs one imports it (and may re-export it, or alias it with `type X = Y`), so the copies
// cannot drift apart. Test files and fixtures are not checked.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { sourceFiles } from './source-files.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const roots = ['packages', 'tools'].flatMap((group) =>
  readdirSync(join(root, group), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(root, group, entry.name, 'src')),
);

const isTest = (name) => /\.(test|test-helper|fixture|types\.test)\.ts$/.test(name);

/** A `type X = Y` or `type X = Y<Z>`: a name for another type, not a second declaration. */
function isAlias(node) {
  return ts.isTypeAliasDeclaration(node) && ts.isTypeReferenceNode(node.type);
}

/**
 * Names that two packages use for different things, none of them a Kubernetes API type (an
 * API type is declared once, in packages/api; a package's own view of one is an alias such as
 * `Partial<ClusterRole>`). Each is checked here so the list cannot grow by accident: the
 * places must be exactly these. Unify one into packages/api when the two become the same
 * concept.
 */
const distinct = new Map([
  // The apiserver's per-call options of its webhook client, and the client's of @ops/core.
  [
    'CallOptions',
    ['packages/apiserver/src/admission/webhook-client.ts', 'packages/core/src/client/client.ts'],
  ],
  // apimachinery's field.Error (type, field, value, detail), and a webhook validator's finding.
  [
    'FieldError',
    ['packages/apiserver/src/api/field-error.ts', 'packages/core/src/webhook/field-error.ts'],
  ],
  // The simulated cluster's controller loop result, and a reconcile's metric label.
  [
    'ReconcileResult',
    [
      'packages/apiserver/src/cluster/reconcile-loop.ts',
      'packages/core/src/metrics/controller-metrics.ts',
    ],
  ],
  // An RBAC verb, and a subcommand of ops-operator.
  ['Verb', ['packages/core/src/crd/policy-rule.ts', 'tools/operator-cli/src/verb.ts']],
  // Each CLI's own streams and environment.
  ['MainIo', ['tools/manifests/src/main.ts', 'tools/operator-cli/src/main.ts']],
]);

const isExported = (node) =>
  node.modifiers?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword) ?? false;

const declarations = new Map();
for (const file of roots.flatMap((directory) => sourceFiles(directory, isTest))) {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  for (const node of source.statements) {
    const declares = ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node);
    if (!declares || !isExported(node) || isAlias(node)) continue;
    const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
    const places = declarations.get(node.name.text) ?? [];
    places.push(`${relative(root, file)}:${line + 1}`);
    declarations.set(node.name.text, places);
  }
}

const samePlaces = (name, places) => {
  const known = distinct.get(name);
  const files = places.map((place) => place.replace(/:\d+$/, '')).sort();
  return known !== undefined && JSON.stringify([...known].sort()) === JSON.stringify(files);
};
const twice = [...declarations].filter(
  ([name, places]) => places.length > 1 && !samePlaces(name, places),
);
for (const [name, places] of twice) {
  console.error(`check-declarations: ${name} is declared ${places.length} times:`);
  for (const place of places) console.error(`  ${place}`);
}
if (twice.length > 0) {
  console.error(
    'check-declarations: declare each type once; a Kubernetes API type belongs in packages/api (@ops/api), and a package that needs it imports it from there (or gives a different concept a different name)',
  );
  process.exit(1);
}
console.log(`check-declarations: ${declarations.size} exported type names, each declared once`);
