#!/usr/bin/env node
// Fails when a Markdown file of the repository links to a file that is not in it: every
// relative link target (`[text](path)` or `[text](path#anchor)`) must exist, so the docs
// never point outside the repository or at a moved file. Web links and in-page anchors are
// not checked. Reads the Markdown files git tracks (and untracked ones it does not ignore).
// Also fails when the root README's tour leaves out a workspace package: every directory of
// packages/, operators/ and tools/ with a package.json must be linked from the README's
// `## The tour` section (a link elsewhere in the README does not count), as `[name](tools/x)`,
// `(./tools/x/)` or `(tools/x/README.md)`. And fails when the README grows to 8,000
// characters or more: it is the front door, and details belong in docs/ or a package's README.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const files = execFileSync(
  'git',
  ['ls-files', '--cached', '--others', '--exclude-standard', '--', '*.md'],
  { cwd: root, encoding: 'utf8' },
)
  .split('\n')
  .filter((file) => file !== '' && existsSync(join(root, file)));

// A link's target: up to the first space (a title may follow) or the closing parenthesis.
const link = /\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g;
const fence = /^\s*(```|~~~)/;
const problems = [];
for (const file of files) {
  let inFence = false;
  readFileSync(join(root, file), 'utf8')
    .split('\n')
    .forEach((line, index) => {
      if (fence.test(line)) inFence = !inFence;
      if (inFence) return;
      for (const [, target] of line.matchAll(link)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#')) continue;
        const path = decodeURIComponent(target.replace(/[#?].*$/, ''));
        const absolute = path.startsWith('/') ? join(root, path) : join(root, dirname(file), path);
        const outside = relative(root, absolute).startsWith('..');
        if (outside || !existsSync(absolute)) {
          problems.push(
            `${file}:${index + 1}: broken link ${target}${outside ? ' (outside the repository)' : ''}`,
          );
        }
      }
    });
}

const readmeLimit = 8000;
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const readmeCharacters = [...readme].length;
if (readmeCharacters >= readmeLimit) {
  problems.push(
    `README.md: ${readmeCharacters} characters, the front door stays under ${readmeLimit}; move details to docs/ or a package's README and link them`,
  );
}

const tourHeading = /^##\s+The tour\s*$/i;
const readmeLines = readme.split('\n');
const tourStart = readmeLines.findIndex((line) => tourHeading.test(line));
if (tourStart < 0) {
  problems.push(
    'README.md: no "## The tour" section; add one that links every directory of packages/, operators/ and tools/',
  );
} else {
  const tourEnd = readmeLines.findIndex(
    (line, index) => index > tourStart && /^#{1,2}\s/.test(line),
  );
  const tourTargets = new Set(
    readmeLines
      .slice(tourStart + 1, tourEnd < 0 ? undefined : tourEnd)
      .flatMap((line) => [...line.matchAll(link)])
      .map(([, target]) =>
        target
          .replace(/[#?].*$/, '')
          .replace(/^\.\//, '')
          .replace(/\/README\.md$/i, '')
          .replace(/\/$/, ''),
      ),
  );
  const untoured = ['packages', 'operators', 'tools'].flatMap((group) =>
    (existsSync(join(root, group)) ? readdirSync(join(root, group), { withFileTypes: true }) : [])
      .filter(
        (entry) => entry.isDirectory() && existsSync(join(root, group, entry.name, 'package.json')),
      )
      .map((entry) => `${group}/${entry.name}`)
      .filter((directory) => !tourTargets.has(directory)),
  );
  for (const directory of untoured) {
    problems.push(
      `README.md:${tourStart + 1}: the tour does not link ${directory}; add it to a tour table as [name](${directory})`,
    );
  }
}

for (const line of problems) console.error(`check-links: ${line}`);
if (problems.length > 0) {
  console.error(
    `check-links: ${problems.length} problem(s): point each link at a file in the repository (docs/ holds the architecture and the operators' behaviour), link every workspace package from the README's tour, and keep the README short`,
  );
  process.exit(1);
}
console.log(
  `check-links: ${files.length} Markdown files, every relative link resolves; the README's tour links every workspace package, in ${readmeCharacters} characters`,
);
