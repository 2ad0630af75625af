import { describe, expect, it } from 'vitest';
import {
  addImport,
  addKustomizeResource,
  addLineAfter,
  addToArray,
  applyTemplateChange,
} from './source-edits.js';

const changed = (result: ReturnType<typeof addImport>) =>
  result.kind === 'changed' ? result.text : `<${result.kind}>`;

describe('addImport', () => {
  it('adds after the last import, a multi-line one included, and only once', () => {
    const text = "import a from 'a';\nimport {\n  b,\n} from 'b';\n\nconst x = 1;\n";
    const once = changed(addImport(text, "import c from 'c';"));
    expect(once).toBe(
      "import a from 'a';\nimport {\n  b,\n} from 'b';\nimport c from 'c';\n\nconst x = 1;\n",
    );
    expect(addImport(once, "import c from 'c';")).toEqual({ kind: 'present' });
  });
});

describe('addToArray', () => {
  const anchor = /rules:\s*\[/;

  it('appends to a one-line and to a multi-line array, and finds an item there', () => {
    expect(changed(addToArray('x = { rules: [...a] };', anchor, '...b', 'f'))).toBe(
      'x = { rules: [...a, ...b] };',
    );
    expect(changed(addToArray('x = {\n  rules: [\n    ...a,\n  ],\n};', anchor, '...b', 'f'))).toBe(
      'x = {\n  rules: [\n    ...a, ...b\n  ],\n};',
    );
    expect(changed(addToArray('rules: []', anchor, 'b', 'f'))).toBe('rules: [b]');
    expect(addToArray('rules: [bRbac, ...b]', anchor, '...b', 'f')).toEqual({ kind: 'present' });
  });

  it('does not take a longer name for the item', () => {
    expect(changed(addToArray('rules: [cacheEntryRbac]', anchor, 'cacheRbac', 'f'))).toBe(
      'rules: [cacheEntryRbac, cacheRbac]',
    );
  });

  it('says what to add when the array is gone', () => {
    expect(addToArray('rules = other;', anchor, 'b', 'src/manifests.ts')).toEqual({
      kind: 'missing',
      instruction: 'src/manifests.ts: no rules:s*[ ... ] found: add b to it',
    });
  });
});

describe('addLineAfter', () => {
  it('keeps the indentation of the line it follows, and gives the instruction when none', () => {
    const text = 'setup(m) {\n    addA(m);\n}';
    expect(changed(addLineAfter(text, 'addB(m);', /addA/, /addB/, 'add it'))).toBe(
      'setup(m) {\n    addA(m);\n    addB(m);\n}',
    );
    expect(addLineAfter('x', 'addB(m);', /addA/, /addB/, 'add it')).toEqual({
      kind: 'missing',
      instruction: 'add it',
    });
  });
});

describe('addKustomizeResource', () => {
  it('adds to resources keeping comments, creates the list, and refuses a non-list', () => {
    const text = '# mine\nresources:\n  - a.yaml # first\n';
    expect(changed(addKustomizeResource(text, 'b.yaml', 'k'))).toBe(
      '# mine\nresources:\n  - a.yaml # first\n  - b.yaml\n',
    );
    expect(addKustomizeResource(text, 'a.yaml', 'k')).toEqual({ kind: 'present' });
    expect(changed(addKustomizeResource('namespace: x\n', 'b.yaml', 'k'))).toBe(
      'namespace: x\n\nresources:\n  - b.yaml\n',
    );
    expect(changed(addKustomizeResource('', 'b.yaml', 'k'))).toBe('resources:\n  - b.yaml\n');
    expect(addKustomizeResource('resources: a\n', 'b.yaml', 'k').kind).toBe('missing');
  });
});

describe('applyTemplateChange', () => {
  const before = 'a\nb\nc\nd\n';
  const after = 'a\nb\nX\nc\nd\nY\n';

  it('replaces an unchanged file, and finds the change applied', () => {
    expect(changed(applyTemplateChange(before, before, after, 'f'))).toBe(after);
    expect(applyTemplateChange(after, before, after, 'f')).toEqual({ kind: 'present' });
  });

  it('places each insertion after its lines in a file changed elsewhere', () => {
    expect(changed(applyTemplateChange('mine\na\nb\nc\nd\n', before, after, 'f'))).toBe(
      'mine\na\nb\nX\nc\nd\nY\n',
    );
  });

  it('names the lines to change when their place is gone', () => {
    const result = applyTemplateChange('a\nB\nc\nd\n', before, after, 'f');
    expect(result).toEqual({ kind: 'missing', instruction: 'f: after the line "b"\n+ X' });
  });
});
