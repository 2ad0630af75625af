#!/usr/bin/env node
// The `ops-operator` bin. It checks the Node.js release first (an unsupported one gets a
// message naming the release required, not a failure inside a dependency), then loads the
// built CLI rather than being it, so that pnpm can link the bin into a workspace operator's
// node_modules/.bin before this package (or @ops/api, which holds the check) is built.
import { existsSync } from 'node:fs';

const notBuilt = (what) => {
  process.stderr.write(
    `ops-operator: ${what} is not built. In the ops repository run: pnpm turbo run build --filter=@ops/operator-cli...\n`,
  );
  process.exitCode = 1;
};

let nodeVersion;
try {
  nodeVersion = await import('@ops/api/node-version');
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
  notBuilt('@ops/api (the Node.js version check)');
}
await nodeVersion?.runOnSupportedNode('ops-operator', async () => {
  const cli = new URL('../dist/cli.js', import.meta.url);
  if (!existsSync(cli)) return notBuilt('@ops/operator-cli (no dist/cli.js)');
  await import(cli.href);
});
