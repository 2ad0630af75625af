#!/usr/bin/env node
import pino from 'pino';
import { corpus } from './corpus/index.js';
import { main } from './main.js';
import { startServers } from './start-servers.js';

// Progress is pino JSON on stderr; the report goes to stdout.
const log = pino({ name: 'fidelity' }, pino.destination(2));

main(process.argv.slice(2), {
  corpus,
  startServers,
  log,
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
}).then(
  (status) => {
    process.exitCode = status;
  },
  (error: unknown) => {
    process.stderr.write(
      `ops-fidelity: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 1;
  },
);
