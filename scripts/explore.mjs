// `pnpm explore <scenario> [--schedules N] [--state FILE] [--seed N] [--replay ID] [--plane P]
// [--concurrency N]`: fault
// exploration mode of @ops/envtest (packages/envtest/README.md, "Fault exploration") on one
// scenario, run by vitest (so scenario modules are TypeScript, as tests are).
//
// <scenario> is an operator's name (its scenario is operators/<name>/test/explore.scenario.ts,
// export `scenario`) or a module path from the repository root, optionally `#<export>`.
// --plane picks the control plane as OPS_ENVTEST_CONTROL_PLANE does (`local`, the default;
// `binaries`, real etcd + kube-apiserver, which gives `cluster` to a scenario that requires
// Pods; `cluster`), over the scenario's own choice. --concurrency runs that many schedules at
// once on the local plane (each with its own API server; default 1; ignored on the real planes).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const usage =
  'usage: pnpm explore <operator | path/to/scenario.ts[#export]> [--schedules N (default 1000)] [--state FILE (resumable)] [--seed N] [--replay SCHEDULE-ID] [--plane local|binaries|cluster] [--concurrency N (local plane)]';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    schedules: { type: 'string' },
    state: { type: 'string' },
    seed: { type: 'string' },
    replay: { type: 'string' },
    plane: { type: 'string' },
    concurrency: { type: 'string' },
    help: { type: 'boolean' },
  },
});
if (values.help || positionals.length !== 1) {
  console.error(usage);
  process.exit(values.help ? 0 : 2);
}
const [target = ''] = positionals;
const [path = '', exportName = 'scenario'] = target.split('#');
const operatorScenario = resolve(root, 'operators', path, 'test/explore.scenario.ts');
const modulePath = existsSync(operatorScenario) ? operatorScenario : resolve(root, path);
if (!existsSync(modulePath)) {
  console.error(
    `pnpm explore: no scenario at ${modulePath}${path.includes('/') ? '' : ` (nor at ${operatorScenario}: an operator's scenario is exported as \`scenario\` from its test/explore.scenario.ts)`}\n${usage}`,
  );
  process.exit(2);
}
for (const [name, value] of [
  ['schedules', values.schedules],
  ['seed', values.seed],
  ['concurrency', values.concurrency],
]) {
  if (value !== undefined && !/^\d+$/.test(value)) {
    console.error(
      `pnpm explore: --${name} takes a whole number, got ${JSON.stringify(value)}\n${usage}`,
    );
    process.exit(2);
  }
}
if (values.concurrency !== undefined && Number(values.concurrency) < 1) {
  console.error(`pnpm explore: --concurrency takes 1 or more, got ${values.concurrency}\n${usage}`);
  process.exit(2);
}
if (values.plane !== undefined && !['local', 'binaries', 'cluster'].includes(values.plane)) {
  console.error(
    `pnpm explore: --plane takes local, binaries or cluster, got ${JSON.stringify(values.plane)}\n${usage}`,
  );
  process.exit(2);
}
const envtest = resolve(root, 'packages/envtest');
const result = spawnSync(
  process.execPath,
  [
    resolve(envtest, 'node_modules/vitest/vitest.mjs'),
    'run',
    '--config',
    'vitest.explore.config.ts',
  ],
  {
    cwd: envtest,
    stdio: 'inherit',
    env: {
      ...process.env,
      OPS_EXPLORE_SCENARIO: modulePath,
      OPS_EXPLORE_EXPORT: exportName,
      OPS_EXPLORE_TARGET: path,
      ...(values.schedules ? { OPS_EXPLORE_SCHEDULES: values.schedules } : {}),
      ...(values.state ? { OPS_EXPLORE_STATE: resolve(process.cwd(), values.state) } : {}),
      ...(values.seed ? { OPS_EXPLORE_SEED: values.seed } : {}),
      ...(values.concurrency ? { OPS_EXPLORE_CONCURRENCY: values.concurrency } : {}),
      ...(values.replay ? { OPS_EXPLORE_REPLAY: values.replay } : {}),
      ...(values.plane
        ? { OPS_ENVTEST_CONTROL_PLANE: values.plane, OPS_EXPLORE_PLANE: values.plane }
        : {}),
    },
  },
);
process.exit(result.status ?? 1);
