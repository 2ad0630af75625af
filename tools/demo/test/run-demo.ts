import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { eventually, freePort } from '@ops/envtest';

const demo = fileURLToPath(new URL('../demo.mjs', import.meta.url));

/** A running demo.mjs with its combined output. */
export interface RunningDemo {
  child: ChildProcess;
  /** stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
  /** Resolves once the output contains `text` (fails after `timeoutMs`). */
  waitFor(text: string, timeoutMs: number): Promise<void>;
}

/**
 * Runs the demo (what `./scripts/demo.sh` execs after building) on a free API server port and
 * free webhook, metrics and probe ports, with `args` after those.
 */
export async function runDemo(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<RunningDemo> {
  const ports = [await freePort(), await freePort(), await freePort()];
  const child = spawn(
    process.execPath,
    [
      demo,
      '--port',
      '0',
      '--webhook-port',
      String(ports[0]),
      '--metrics-port',
      String(ports[1]),
      '--health-port',
      String(ports[2]),
      ...args,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], env },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return {
    child,
    output: () => output,
    exited,
    waitFor: async (text, timeoutMs) => {
      await eventually(
        () => {
          if (child.exitCode !== null)
            throw new Error(
              `the demo exited (${child.exitCode}) before printing "${text}":\n${output}`,
            );
          return output.includes(text);
        },
        { timeoutMs, description: `the demo printing "${text}"` },
      );
    },
  };
}
