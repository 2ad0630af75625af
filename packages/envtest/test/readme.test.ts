import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(fileURLToPath(new URL(path, import.meta.url)), 'utf8');

describe('README', () => {
  it('shows the example verbatim, and the example runs (its asserts hold)', async () => {
    expect(read('../README.md')).toContain(read('../examples/environment.ts').trim());
    await expect(import('../examples/environment.js')).resolves.toBeDefined();
  });

  it('shows the operator-as-deployed example verbatim, and it runs (its asserts hold)', async () => {
    expect(read('../README.md')).toContain(read('../examples/operator-as-deployed.ts').trim());
    await expect(import('../examples/operator-as-deployed.js')).resolves.toBeDefined();
  });

  it('shows the Manager-in-a-test example verbatim, and it runs (the controller converges)', async () => {
    expect(read('../README.md')).toContain(read('../examples/manager-in-test.ts').trim());
    await expect(import('../examples/manager-in-test.js')).resolves.toBeDefined();
  });
});
