#!/usr/bin/env node
// Fails when the folders of one package's src/ import each other in a cycle (server/ imports
// cluster/ and cluster/ imports server/, directly or through other folders), type-only imports
// included: a folder is a concept, and concepts layer. Tests and test helpers
// (*.test.ts, *.test-helper.ts, *.fixture.ts) are not checked: a test may assemble the whole.
// The graph comes from dependency-cruiser (its folder-scoped `circular` rule); a cycle is
// printed as the folders on it, and fixed by moving what both sides need to a lower folder or
// by passing in the narrow interface a folder uses instead of importing its implementation.
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise } from 'dependency-cruiser';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const sources = ['packages', 'tools', 'operators'].flatMap((group) =>
  readdirSync(join(root, group), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(group, entry.name, 'src'))
    .filter((directory) => existsSync(join(root, directory))),
);

process.chdir(root);
const { output } = await cruise(
  sources,
  {
    validate: true,
    ruleSet: {
      forbidden: [
        {
          name: 'no-folder-cycle',
          severity: 'error',
          scope: 'folder',
          from: {},
          to: { circular: true },
        },
      ],
    },
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.test\\.ts$|\\.test-helper\\.ts$|\\.fixture\\.ts$|/dist/|node_modules' },
    outputType: 'json',
  },
  {},
  { tsConfig: { fileName: join(root, 'tsconfig.base.json') } },
);
const result = typeof output === 'string' ? JSON.parse(output) : output;
const cycles = new Set(
  result.summary.violations
    .filter((violation) => violation.rule.name === 'no-folder-cycle')
    .map((violation) =>
      [violation.from, ...(violation.cycle ?? []).map((step) => step.name ?? step)]
        .map((folder) => relative(root, resolve(root, folder)))
        .join(' -> '),
    ),
);
if (cycles.size > 0) {
  console.error(
    `check-import-cycles: ${cycles.size} import cycle(s) between folders; move what both sides need to a lower folder, or pass in the interface a folder uses:`,
  );
  for (const cycle of cycles) console.error(`  ${cycle}`);
  process.exit(1);
}
console.log(
  `check-import-cycles: ${result.summary.totalCruised} modules in ${sources.length} packages, no import cycle between folders`,
);
