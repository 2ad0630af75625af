#!/usr/bin/env node
// The `ops-operator` bin. It checks the Node.js release first (an unsupported one gets a
// message naming the release required, not a failure inside a dependency), then loads the
// built CLI rather than being it, so that pnpm can link the bin into a workspace operator's
// node_modules/.bin before this package is built.
import { existsSync } from 'node:fs';
import { runOnSupportedNode } from '@ops/api/node-version';

await runOnSupportedNode('ops-operator', async () => {
  const cli = new URL('../dist/cli.js', import.meta.url);
  if (!existsSync(cli)) {
    process.stderr.write(
      'ops-operator: @ops/operator-cli is not built (no dist/cli.js). In the ops repository run: pnpm turbo run build --filter=@ops/operator-cli...\n',
    );
    process.exitCode = 1;
    return;
  }
  await import(cli.href);
});
