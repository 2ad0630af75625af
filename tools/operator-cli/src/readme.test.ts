import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { operatorVerbs, verbs } from './main.js';

const readme = readFileSync(
  join(fileURLToPath(new URL('.', import.meta.url)), '..', 'README.md'),
  'utf8',
);

it("the README's package.json example wires every operator verb, and its table lists them all", () => {
  const example = /```json\n([\s\S]*?)```/.exec(readme)?.[1];
  const scripts = (JSON.parse(example ?? '{}') as { scripts: Record<string, string> }).scripts;
  for (const verb of verbs) expect(readme, verb.name).toContain(`| \`${verb.name}`);
  for (const verb of operatorVerbs) {
    expect(scripts[verb.name], verb.name).toMatch(new RegExp(`(^|&& )ops-operator ${verb.name}$`));
  }
});
