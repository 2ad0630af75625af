// Every operator's image runs the Node.js the project is pinned to (.node-version): both
// Dockerfile stages name its major on one Debian release, and the shared operator bundle
// (tsup.operator.ts) targets it. A Node.js upgrade that forgets an image fails here rather
// than in a user's cluster. Checked for each operator under operators/, in one place.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { operatorBundleConfig } from '../../../tsup.operator.js';

const repositoryRoot = join(import.meta.dirname, '..', '..', '..');
const pinned = readFileSync(join(repositoryRoot, '.node-version'), 'utf8').trim();
const major = pinned.split('.')[0];
const operators = readdirSync(join(repositoryRoot, 'operators')).filter((name) =>
  existsSync(join(repositoryRoot, 'operators', name, 'Dockerfile')),
);

describe('operator images', () => {
  it('finds the operators', () => {
    expect(operators).toContain('application-operator');
  });

  it(`the shared bundle targets Node.js ${major}, the pinned major`, () => {
    expect(operatorBundleConfig.target).toBe(`node${major}`);
  });

  it.each(operators)(
    '%s builds and runs on the pinned Node.js major, one Debian release',
    (name) => {
      const dockerfile = readFileSync(
        join(repositoryRoot, 'operators', name, 'Dockerfile'),
        'utf8',
      );
      const stages = [...dockerfile.matchAll(/^FROM\s+(?:--platform=\S+\s+)?(\S+)/gm)].map(
        (match) => match[1],
      );
      expect(stages).toEqual([
        `node:${major}-trixie-slim`,
        `gcr.io/distroless/nodejs${major}-debian13:nonroot`,
      ]);
      const tsup = readFileSync(join(repositoryRoot, 'operators', name, 'tsup.config.ts'), 'utf8');
      expect(tsup).toContain("from '../../tsup.operator.js'");
    },
  );
});
