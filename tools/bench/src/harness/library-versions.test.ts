import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { libraryVersions } from './library-versions.js';
import { packageRoot } from './package-root.js';

describe('libraryVersions', () => {
  it('reads the installed version of each compared library, exports maps or not', () => {
    const versions = libraryVersions();
    const declared = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as {
      devDependencies: Record<string, string>;
    };
    // The peers are pinned exactly in this package, so the installed versions are those.
    expect(versions['@kubernetes/client-node']).toBe(
      declared.devDependencies['@kubernetes/client-node'],
    );
    expect(versions['kubernetes-fluent-client']).toBe(
      declared.devDependencies['kubernetes-fluent-client'],
    );
    expect(versions['@ops/core']).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('names a package it cannot resolve', () => {
    expect(() => libraryVersions(['@ops/no-such-package'])).toThrow(/no-such-package/);
  });
});
