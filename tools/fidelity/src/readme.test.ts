import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { corpus } from './corpus/index.js';
import { normalizationRules } from './normalize.js';

const readme = readFileSync(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8');

it("the README's tables list every scenario of the corpus and every normalization rule", () => {
  for (const scenario of corpus) expect(readme).toContain(`| \`${scenario.name}\` |`);
  for (const rule of normalizationRules) expect(readme).toContain(`| ${rule.name} |`);
});
