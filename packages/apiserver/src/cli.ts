#!/usr/bin/env node
// The `local-cluster` bin: checks the Node.js release first, then loads the CLI (run-cli.ts)
// with a dynamic import, so an unsupported release gets a message naming the one required
// instead of a failure inside some dependency.
import { runOnSupportedNode } from '@ops/api/node-version';

await runOnSupportedNode('local-cluster', () => import('./run-cli.js'));
