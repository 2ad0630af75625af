#!/usr/bin/env node
// Fails when a class in packages/*/src has a body longer than the limit (400 lines, from the
// line after `{` to the line before `}`), so no class grows back into several concerns. A
// class that reaches it splits into parts named after what they do. Tests are not checked.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { sourceFiles } from './source-files.mjs';

const limit = 400;
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const packages = readdirSync(join(root, 'packages'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => join(root, 'packages', entry.name, 'src'));

const isTest = (name) => /\.test\.ts$/.test(name);

const tooLong = [];
let classes = 0;
for (const file of packages.flatMap((directory) => sourceFiles(directory, isTest))) {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const visit = (node) => {
    if (ts.isClassDeclaration(node) || ts.isClassExpression(node)) {
      classes++;
      const open = node.members.pos;
      const lineOf = (position) => source.getLineAndCharacterOfPosition(position).line;
      const body = lineOf(node.end) - lineOf(open) - 1;
      const name = node.name?.text ?? '<anonymous class>';
      if (body > limit) {
        tooLong.push(
          `${relative(root, file)}:${lineOf(node.getStart(source)) + 1} ${name}: ${body} lines`,
        );
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}

for (const line of tooLong) console.error(`check-class-size: ${line}`);
if (tooLong.length > 0) {
  console.error(
    `check-class-size: ${tooLong.length} class(es) over ${limit} lines; split each into parts named after what they do`,
  );
  process.exit(1);
}
console.log(`check-class-size: ${classes} classes, none over ${limit} lines`);
