// Every operator's image runs the Node.js the project is pinned to (.node-version): both
// stages of the shared operators/Dockerfile name its major on one Debian release, and the
// shared operator bundle (tsup.operator.ts) targets it. A Node.js upgrade that forgets the
// image fails here rather than in a user's cluster. Every operator under operators/ is built
// from that one Dockerfile (none has its own), which takes the operator as a build argument.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { operatorBundleConfig } from '../../../tsup.operator.js';

const repositoryRoot = join(import.meta.dirname, '..', '..', '..');
const pinned = readFileSync(join(repositoryRoot, '.node-version'), 'utf8').trim();
const major = pinned.split('.')[0];
const operators = readdirSync(join(repositoryRoot, 'operators')).filter((name) =>
  existsSync(join(repositoryRoot, 'operators', name, 'package.json')),
);
const dockerfile = readFileSync(join(repositoryRoot, 'operators', 'Dockerfile'), 'utf8');

describe('operator images', () => {
  it('finds the operators', () => {
    expect(operators).toEqual(
      expect.arrayContaining([
        'application-operator',
        'balancer-operator',
        'myjob-operator',
        'sidecar-operator',
      ]),
    );
  });

  it(`the shared bundle targets Node.js ${major}, the pinned major`, () => {
    expect(operatorBundleConfig.target).toBe(`node${major}`);
  });

  it('the shared Dockerfile builds and runs on the pinned Node.js major, one Debian release', () => {
    const stages = [...dockerfile.matchAll(/^FROM\s+(?:--platform=\S+\s+)?(\S+)/gm)].map(
      (match) => match[1],
    );
    expect(stages).toEqual([
      `node:${major}-trixie-slim`,
      `gcr.io/distroless/nodejs${major}-debian13:nonroot`,
    ]);
  });

  it('the shared Dockerfile builds the operator named by its OPERATOR argument, and only its bundle ships', () => {
    expect(dockerfile).toMatch(/^ARG OPERATOR$/m);
    expect(dockerfile).toContain(`require('./operators/\${OPERATOR}/package.json').name`);
    expect(dockerfile).toContain(`--filter "\${PACKAGE}..."`);
    expect(dockerfile).toContain(`cp "operators/\${OPERATOR}/dist/main.js"`);
    expect(dockerfile).toContain('COPY --from=build /out/main.js /out/main.js.map /app/');
  });

  it.each(operators)(
    '%s has no Dockerfile of its own and bundles with the shared tsup configuration',
    (name) => {
      expect(existsSync(join(repositoryRoot, 'operators', name, 'Dockerfile'))).toBe(false);
      const tsup = readFileSync(join(repositoryRoot, 'operators', name, 'tsup.config.ts'), 'utf8');
      expect(tsup).toContain("from '../../tsup.operator.js'");
    },
  );
});
