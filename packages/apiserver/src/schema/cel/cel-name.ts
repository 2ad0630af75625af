/**
 * Property names as CEL expressions see them, escaped as kube-apiserver escapes them
 * (k8s.io/apiserver/pkg/cel/escaping.go): a property named like a CEL reserved word becomes
 * `__{word}__`; `__`, `.`, `-` and `/` become `__underscores__`, `__dot__`, `__dash__` and
 * `__slash__`. Names with any other character outside `[a-zA-Z0-9_]`, or starting with a digit,
 * cannot be escaped and are left out of the CEL view of the object.
 */

const reserved = new Set([
  'true',
  'false',
  'null',
  'in',
  'as',
  'break',
  'const',
  'continue',
  'else',
  'for',
  'function',
  'if',
  'import',
  'let',
  'loop',
  'package',
  'namespace',
  'return',
  'var',
  'void',
  'while',
]);

const escapes: Record<string, string> = {
  '.': '__dot__',
  '-': '__dash__',
  '/': '__slash__',
};

/** The CEL name of property `name`, or `undefined` when kube-apiserver cannot escape it. */
export function escapeCelName(name: string): string | undefined {
  if (name === '') return undefined;
  if (reserved.has(name)) return `__${name}__`;
  if (!/^[a-zA-Z_][a-zA-Z0-9_./-]*$/.test(name)) return undefined;
  return name.replace(/__|[./-]/g, (match) => escapes[match] ?? '__underscores__');
}
