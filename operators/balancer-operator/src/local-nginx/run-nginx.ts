import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import type { Nginx } from './find-nginx.js';

const run = promisify(execFile);

/** The `-g` directives a local run needs: the stream module when dynamic, a pid file in `dir`. */
const globals = (nginx: Nginx, dir: string) =>
  [nginx.loadStreamModule, `pid ${join(dir, 'nginx.pid')};`].filter(Boolean).join(' ');

const args = (nginx: Nginx, dir: string, file: string) => [
  '-p',
  dir,
  '-c',
  file,
  '-g',
  globals(nginx, dir),
];

/**
 * Runs `nginx -t` on `conf` in a fresh temporary directory: resolves with nginx's report when
 * it accepts the file. nginx resolves upstream host names during the test, so `conf` must name
 * hosts this machine resolves (see `localNginxConfig`); it binds no port.
 *
 * @throws Error with nginx's own message (`[emerg] ... in nginx.conf:12`) when it refuses.
 */
export async function checkNginxConfig(nginx: Nginx, conf: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'balancer-nginx-t-'));
  try {
    const file = join(dir, 'nginx.conf');
    await writeFile(file, conf);
    try {
      const { stdout, stderr } = await run(nginx.path, ['-t', ...args(nginx, dir, file)]);
      return `${stdout}${stderr}`;
    } catch (error) {
      const { stderr } = error as { stderr?: string };
      throw new Error(`nginx -t refused the configuration: ${stderr ?? (error as Error).message}`);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** An nginx running in the foreground on a configuration, started by {@link startNginx}. */
export interface RunningNginx {
  /** Stops nginx (SIGQUIT, then SIGKILL after 5 s) and removes its directory. */
  stop(): Promise<void>;
}

/**
 * Starts `nginx` in the foreground (`daemon off`) on `conf` in a fresh temporary directory and
 * resolves once it has opened its listening sockets (nginx writes its pid file after that).
 * `conf` must listen on ports of this machine that are free (see `localNginxConfig`).
 *
 * @throws Error with nginx's output when it exits or does not start within 10 s.
 */
export async function startNginx(nginx: Nginx, conf: string): Promise<RunningNginx> {
  const dir = await mkdtemp(join(tmpdir(), 'balancer-nginx-'));
  const file = join(dir, 'nginx.conf');
  await writeFile(file, conf);
  const pidFile = join(dir, 'nginx.pid');
  const child: ChildProcess = spawn(
    nginx.path,
    ['-p', dir, '-c', file, '-g', `daemon off; ${globals(nginx, dir)}`],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  let exited = false;
  const exit = new Promise<void>((resolve) => {
    child.once('exit', () => {
      exited = true;
      resolve();
    });
  });
  const stop = async () => {
    if (!exited) {
      child.kill('SIGQUIT');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exit;
      clearTimeout(timer);
    }
    await rm(dir, { recursive: true, force: true });
  };
  const pid = () =>
    readFile(pidFile, 'utf8').then(
      (text) => text.trim(),
      () => '',
    );
  const deadline = Date.now() + 10_000;
  while ((await pid()) === '') {
    if (exited || Date.now() > deadline) {
      await stop();
      throw new Error(
        `nginx did not start on the configuration: ${output.trim() || '(no output)'}`,
      );
    }
    await sleep(20);
  }
  return { stop };
}
