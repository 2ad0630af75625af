#!/usr/bin/env node
import { main } from './main.js';

main(process.argv.slice(2), {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
}).then(
  (status) => {
    process.exitCode = status;
  },
  (error: unknown) => {
    process.stderr.write(`ops-control-plane: unexpected error: ${String(error)}\n`);
    process.exitCode = 2;
  },
);
