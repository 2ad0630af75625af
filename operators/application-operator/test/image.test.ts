// The image runs the Node.js the project is pinned to (.node-version): both Dockerfile stages
// name its major on one Debian release, and the bundle targets it. A Node.js upgrade that
// forgets the image fails here rather than in a user's cluster.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const operatorDir = join(import.meta.dirname, '..');
const repositoryRoot = join(operatorDir, '..', '..');

describe('the image', () => {
  it('builds and runs on the pinned Node.js major, one Debian release, and the bundle targets it', async () => {
    const pinned = (await readFile(join(repositoryRoot, '.node-version'), 'utf8')).trim();
    const major = pinned.split('.')[0];
    const dockerfile = await readFile(join(operatorDir, 'Dockerfile'), 'utf8');
    const stages = [...dockerfile.matchAll(/^FROM\s+(?:--platform=\S+\s+)?(\S+)/gm)].map(
      (match) => match[1],
    );
    expect(stages).toHaveLength(2);
    const [build, runtime] = stages;
    expect(build).toBe(`node:${major}-trixie-slim`);
    expect(runtime).toBe(`gcr.io/distroless/nodejs${major}-debian13:nonroot`);
    // The operator's tsup config is the one every operator shares.
    expect(await readFile(join(operatorDir, 'tsup.config.ts'), 'utf8')).toContain(
      "export { operatorBundleConfig as default } from '../../tsup.operator.js';",
    );
    const tsup = await readFile(join(repositoryRoot, 'tsup.operator.ts'), 'utf8');
    expect(tsup).toContain(`target: 'node${major}'`);
  });
});
