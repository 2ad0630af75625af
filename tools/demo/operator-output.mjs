// How the demo reads the operator process it runs: its pino JSON lines on stdout.
import { createInterface } from 'node:readline';

const warnLevel = 40;

/**
 * Follows an operator's stdout (pino JSON, at `info` or below) and resolves with the ports its
 * metrics and health probe servers bound, from their `... listening` lines: the real ports,
 * so `--metrics-bind-address 127.0.0.1:0` gives the one the system picked. Every line at
 * `warn` or above, and any line that is not JSON, is passed to `write` as it came, so the
 * demo shows what it showed at `--log-level warn`.
 *
 * Never resolves when the output ends before both servers listened (the caller watches for
 * the process exiting).
 */
export function boundOperatorPorts(stdout, write) {
  const ports = { metrics: undefined, health: undefined };
  return new Promise((resolve) => {
    createInterface({ input: stdout }).on('line', (line) => {
      let entry;
      try {
        entry = JSON.parse(line);
      } catch {
        write(`${line}\n`);
        return;
      }
      if (entry.msg === 'metrics server listening') ports.metrics = entry.port;
      if (entry.msg === 'health probe server listening') ports.health = entry.port;
      if (ports.metrics !== undefined && ports.health !== undefined) resolve(ports);
      if (typeof entry.level === 'number' && entry.level >= warnLevel) write(`${line}\n`);
    });
  });
}
