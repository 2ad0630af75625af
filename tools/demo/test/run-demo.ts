import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { eventually } from '@ops/envtest';

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
 * Runs the demo (what `./scripts/demo.sh` execs after building) with every port 0 (the API
 * server, webhook, metrics and probe ports: each a free one, which the demo prints), with
 * `args` after those.
 */
export async function runDemo(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<RunningDemo> {
  const child = spawn(
    process.execPath,
    [
      demo,
      '--port',
      '0',
      '--webhook-port',
      '0',
      '--metrics-port',
      '0',
      '--health-port',
      '0',
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
