import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { parse } from 'yaml';
import { capture, copyFixture, removeCopies } from '../../test/fixture-operator.js';
import { main } from '../main.js';

afterAll(removeCopies);

it('builds the operator (npm run build outside a workspace), then generates; --check finds drift without building', async () => {
  const root = copyFixture();
  const first = capture();
  expect(await main(['manifests'], { cwd: root, ...first.io })).toBe(0);
  expect(existsSync(join(root, 'dist/manifests.js'))).toBe(true);
  expect(first.output.stdout).toContain('created   config/rbac/role.yaml\n');
  // Then the Helm chart, from config/default.
  expect(first.output.stdout).toContain('created   chart/Chart.yaml\n');
  expect(existsSync(join(root, 'chart/templates/deployment-controller-manager.yaml'))).toBe(true);
  const role = parse(readFileSync(join(root, 'config/rbac/role.yaml'), 'utf8'));
  expect(role.metadata.name).toBe('manager-role');
  expect(role.rules).toEqual([
    { apiGroups: ['apps'], resources: ['deployments'], verbs: ['get', 'list', 'watch'] },
  ]);

  const upToDate = capture();
  expect(await main(['manifests', '--check'], { cwd: root, ...upToDate.io })).toBe(0);
  expect(upToDate.output.stdout).toBe(
    'ops-manifests: 4 file(s) up to date\nhelm chart: 11 file(s) up to date\nmonitoring (config/prometheus, grafana): 1 file(s) up to date\n',
  );

  const rolePath = join(root, 'config/rbac/role.yaml');
  writeFileSync(rolePath, readFileSync(rolePath, 'utf8').replace('  - watch\n', ''));
  const stale = capture();
  expect(await main(['manifests', '--check'], { cwd: root, ...stale.io })).toBe(1);
  expect(stale.output.stdout).toContain('+  - watch');
  expect(stale.output.stderr).toContain('config/rbac/role.yaml differs');

  // A chart out of step with config/default fails the check, naming the file.
  writeFileSync(
    rolePath,
    readFileSync(rolePath, 'utf8').replace('  - list\n', '  - list\n  - watch\n'),
  );
  const values = join(root, 'chart/values.yaml');
  writeFileSync(values, readFileSync(values, 'utf8').replace('replicas: 1', 'replicas: 3'));
  const staleChart = capture();
  expect(await main(['manifests', '--check'], { cwd: root, ...staleChart.io })).toBe(1);
  expect(staleChart.output.stderr).toBe(
    'helm chart out of date:\n  chart/values.yaml differs\nRegenerate with: ops-operator manifests (or ops-operator helm)\n',
  );
}, 60_000);

it('says when the build fails', async () => {
  const root = copyFixture();
  writeFileSync(join(root, 'build.mjs'), 'process.exit(4);\n');
  const failed = capture();
  expect(await main(['manifests'], { cwd: root, ...failed.io })).toBe(1);
  expect(failed.output.stderr).toContain('ops-operator manifests: npm run build failed (exit 4)');
}, 60_000);
