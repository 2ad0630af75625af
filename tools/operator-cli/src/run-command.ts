/**
 * Running the external tools the verbs drive (kubectl, docker, the operator itself) with
 * errors that say what to do.
 */
import { spawn } from 'node:child_process';
import { OperatorCliError } from './errors/operator-cli-error.js';

/** How {@link runCommand} runs a command. */
export interface RunCommandOptions {
  /** Working directory. Default: the current directory. */
  cwd?: string;
  /** Text written to the command's stdin (otherwise stdin is inherited). */
  input?: string;
  /**
   * Return stdout instead of passing it through, and put stderr into the error rather than
   * passing it through. Default false.
   */
  capture?: boolean;
  /** Environment. Default: `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Names the tool in errors. Default: the command. */
  what?: string;
  /** Says how to get the tool when it is missing, e.g. `Install kubectl (...)`. */
  install?: string;
}

/**
 * Runs `command` with `args` and resolves with its stdout (empty unless `capture`).
 *
 * @throws {OperatorCliError} when the command is not found (naming it and, with `install`,
 * how to get it), cannot be started, or exits non-zero (with its stderr when captured).
 */
export function runCommand(
  command: string,
  args: readonly string[],
  options: RunCommandOptions = {},
): Promise<string> {
  const what = options.what ?? command;
  return new Promise((resolve, reject) => {
    const child = spawn(command, [...args], {
      cwd: options.cwd,
      env: options.env ?? process.env,
      // stderr is always read (and, unless capturing, passed on): errors are told by it.
      stdio: [
        options.input === undefined ? 'inherit' : 'pipe',
        options.capture ? 'pipe' : 'inherit',
        'pipe',
      ],
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      if (!options.capture) process.stderr.write(chunk);
    });
    child.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') {
        reject(
          new OperatorCliError(
            `${what} not found: "${command}" is not on PATH.${options.install ? ` ${options.install}` : ''}`,
          ),
        );
      } else {
        reject(new OperatorCliError(`${what} could not be started: ${error.message}`));
      }
    });
    child.once('close', (code, signal) => {
      if (code === 0) {
        resolve(stdout);
        return;
      }
      // Shown already unless captured.
      const detail = options.capture ? stderr.trim() : '';
      reject(
        new OperatorCliError(
          `${[command, ...args].join(' ')} failed (exit ${code ?? signal})${detail ? `:\n${detail}` : ''}`,
          { stderr },
        ),
      );
    });
    if (options.input !== undefined) child.stdin?.end(options.input);
  });
}
