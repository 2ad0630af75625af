/**
 * Runs a README's shell commands one by one as a user's terminal would: `cd <dir>` and
 * `export NAME=value` change what the next commands see, a command ending in ` &` keeps
 * running in the background (stopped by {@link ReadmeShell.stop}), and any other command runs
 * with `sh -c` and must exit 0. Commands run asynchronously, so a server in this process (the
 * local registry) keeps answering them.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';

/** A command's output, kept for the test's assertions and failure messages. */
export interface CommandOutput {
  command: string;
  stdout: string;
  stderr: string;
}

/** A user's shell, started in `cwd` with `env`. */
export class ReadmeShell {
  cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly #background: { command: string; child: ChildProcess; output: string[] }[] = [];
  /** The commands running in the foreground (more than one only after a test timed out). */
  readonly #foreground = new Set<ChildProcess>();

  constructor(cwd: string, env: NodeJS.ProcessEnv) {
    this.cwd = cwd;
    this.env = { ...env };
  }

  /**
   * Runs `command` (see the module comment).
   *
   * @throws Error naming the command, the directory and its output when it exits non-zero
   * or a background command has died.
   */
  async run(command: string): Promise<CommandOutput> {
    const cd = /^cd\s+(\S+)$/.exec(command);
    if (cd) {
      this.cwd = resolve(this.cwd, cd[1] as string);
      return { command, stdout: '', stderr: '' };
    }
    const exported = /^export\s+(\w+)=(.*)$/.exec(command);
    if (exported) {
      const value = await this.#capture(`printf %s "${exported[2]}"`);
      this.env[exported[1] as string] = value.stdout;
      return { command, stdout: '', stderr: '' };
    }
    const background = /^(.*\S)\s+&(\s+#.*)?$/.exec(command);
    if (background) {
      const child = spawn('sh', ['-c', background[1] as string], {
        cwd: this.cwd,
        env: this.env,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const output: string[] = [];
      child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
      child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
      this.#background.push({ command, child, output });
      return { command, stdout: '', stderr: '' };
    }
    return this.#capture(command);
  }

  /** What the background command `command` has printed so far. */
  backgroundOutput(command: string): string {
    return this.#background.find((entry) => entry.command === command)?.output.join('') ?? '';
  }

  /**
   * Stops every background command, and a foreground one a timed-out test left running (each
   * command's whole process group), waiting for each to exit.
   */
  async stop(): Promise<void> {
    const children = [...this.#background.map(({ child }) => child), ...this.#foreground];
    await Promise.all(
      children.map(async (child) => {
        if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) {
          return;
        }
        const exited = new Promise((done) => child.once('exit', done));
        try {
          process.kill(-child.pid, 'SIGTERM');
        } catch {
          return;
        }
        const timer = setTimeout(() => {
          try {
            process.kill(-(child.pid as number), 'SIGKILL');
          } catch {
            // exited meanwhile
          }
        }, 10_000);
        await exited;
        clearTimeout(timer);
      }),
    );
  }

  #capture(command: string): Promise<CommandOutput> {
    for (const { command: started, child, output } of this.#background) {
      if (child.exitCode !== null && child.exitCode !== 0) {
        return Promise.reject(
          new Error(`\`${started}\` exited with ${child.exitCode}:\n${output.join('')}`),
        );
      }
    }
    return new Promise((done, fail) => {
      const child = spawn('sh', ['-c', command], { cwd: this.cwd, env: this.env, detached: true });
      this.#foreground.add(child);
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
      });
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      child.on('error', fail);
      child.on('close', (code) => {
        this.#foreground.delete(child);
        if (code === 0) done({ command, stdout, stderr });
        else {
          fail(new Error(`\`${command}\` exited with ${code} in ${this.cwd}:\n${stdout}${stderr}`));
        }
      });
    });
  }
}
