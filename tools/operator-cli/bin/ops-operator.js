#!/usr/bin/env node
// The `ops-operator` bin. It loads the built CLI rather than being it, so that pnpm can link
// the bin into a workspace operator's node_modules/.bin before this package is built.
import { existsSync } from 'node:fs';

const cli = new URL('../dist/cli.js', import.meta.url);
if (!existsSync(cli)) {
  process.stderr.write(
    'ops-operator: @ops/operator-cli is not built (no dist/cli.js). In the ops repository run: pnpm turbo run build --filter=@ops/operator-cli...\n',
  );
  process.exitCode = 1;
} else {
  await import(cli.href);
}
