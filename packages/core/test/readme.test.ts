import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(fileURLToPath(new URL(path, import.meta.url)), 'utf8');

describe('README', () => {
  it('shows the metadata example verbatim, and the example runs (its asserts hold)', async () => {
    const example = read('../examples/metadata.ts');
    expect(read('../README.md')).toContain(example.trim());
    await expect(import('../examples/metadata.js')).resolves.toBeDefined();
  });

  it('shows the conversion example verbatim, and the example runs (its asserts hold)', async () => {
    const example = read('../examples/conversion.ts');
    expect(read('../README.md')).toContain(example.trim());
    await expect(import('../examples/conversion.js')).resolves.toBeDefined();
  });
});
