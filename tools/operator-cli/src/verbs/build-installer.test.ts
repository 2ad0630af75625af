import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { capture, copyFixture, removeCopies } from '../../test/fixture-operator.js';
import { kubectlCommand, parseYamlStream } from '../kubectl.js';
import { main } from '../main.js';

afterAll(removeCopies);

it('writes every object of the overlay with the image from IMG, where --out says', async () => {
  const root = copyFixture();
  const { output, io } = capture();
  const status = await main(
    ['build-installer', '--overlay', 'config/default-no-certmanager', '--out', 'out/all.yaml'],
    { cwd: root, env: { ...process.env, IMG: 'ghcr.io/acme/sample:1.2.3' }, ...io },
  );
  expect(output.stderr).toBe('');
  expect(status).toBe(0);
  expect(output.stdout).toBe(
    'wrote out/all.yaml (image ghcr.io/acme/sample:1.2.3); install with: kubectl apply -f out/all.yaml\n',
  );
  const written = parseYamlStream(readFileSync(join(root, 'out/all.yaml'), 'utf8'));
  const deployment = written.find((object) => object.kind === 'Deployment');
  expect(deployment?.spec.template.spec.containers.map((c: { image: string }) => c.image)).toEqual([
    'ghcr.io/acme/sample:1.2.3',
    'busybox:1.36',
  ]);
  // Exactly what kustomize renders from the updated config.
  expect(written).toEqual(
    parseYamlStream(
      execFileSync(kubectlCommand(), ['kustomize', join(root, 'config/default')], {
        encoding: 'utf8',
      }),
    ),
  );
});

it('says how to get kubectl when it is missing', async () => {
  const root = copyFixture();
  const { output, io } = capture();
  const status = await main(['build-installer'], {
    cwd: root,
    env: { ...process.env, KUBECTL: join(root, 'no-kubectl') },
    ...io,
  });
  expect(status).toBe(1);
  expect(output.stderr).toBe(
    `ops-operator build-installer: kubectl not found: "${join(root, 'no-kubectl')}" is not on PATH. Install kubectl (https://kubernetes.io/docs/tasks/tools/) or set KUBECTL to its path.\n`,
  );
});
