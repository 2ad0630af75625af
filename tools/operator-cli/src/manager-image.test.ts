import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { copyFixture, removeCopies } from '../test/fixture-operator.js';
import { setManagerImage } from './manager-image.js';

afterAll(removeCopies);

it('rewrites only the controller image of config/manager, keeping comments and other images, and only when it changes', () => {
  const root = copyFixture();
  const path = join(root, 'config/manager/kustomization.yaml');
  const before = readFileSync(path, 'utf8');
  expect(setManagerImage('sample-operator:latest', root)).toBe(false);
  expect(readFileSync(path, 'utf8')).toBe(before);

  expect(setManagerImage(`ghcr.io/acme/sample@sha256:${'b'.repeat(64)}`, root)).toBe(true);
  const after = readFileSync(path, 'utf8');
  expect(after).toContain('# The image, set by deploy and build-installer.');
  expect(after).toContain(
    `  - name: controller\n    newName: ghcr.io/acme/sample\n    digest: sha256:${'b'.repeat(64)}\n`,
  );
  expect(after).toContain('  - name: sidecar\n    newName: busybox\n    newTag: "1.36"\n');
  expect(after).not.toContain('newTag: latest');
});
