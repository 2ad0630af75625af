import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll } from 'vitest';
import { ApiServer } from '../src/index.js';

const run = promisify(execFile);

/** What {@link pythonClientSuite} gives the tests of its file. */
export interface PythonClientSuite {
  /** The local API server the scripts talk to (started in `beforeAll`). */
  server(): ApiServer;
  /**
   * Runs `test/python/<script>` with the server's admin kubeconfig as its one argument and
   * resolves with its stdout parsed as JSON.
   *
   * @throws {Error} saying how to install the client when the Python used (`$OPS_PYTHON`,
   *   default `/usr/bin/python3`) cannot import `kubernetes` (a missing client fails the
   *   test, never skips it); the script's own failure (exit code and stderr) otherwise.
   */
  runScript(script: string): Promise<unknown>;
}

/**
 * The setup of a test file that drives the local API server with a client written in
 * another language: the official Python client, from Debian's python3-kubernetes
 * (scripts/ensure-python-kubernetes.sh installs it for scripts/test.sh). Registers a
 * `beforeAll` that starts an {@link ApiServer} without the simulated cluster and makes a
 * temporary directory (named after `name`) for its kubeconfig, and an `afterAll` that stops
 * the server and removes the directory. Call it once, at the top level of the file.
 */
export function pythonClientSuite(name: string): PythonClientSuite {
  const python = process.env.OPS_PYTHON ?? '/usr/bin/python3';
  let server: ApiServer | undefined;
  let dir: string | undefined;
  beforeAll(async () => {
    server = await ApiServer.start({ cluster: false });
    dir = await mkdtemp(join(tmpdir(), `${name}-`));
  });
  afterAll(async () => {
    await server?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  const started = (): { server: ApiServer; dir: string } => {
    if (server === undefined || dir === undefined)
      throw new Error('the Python client suite is used outside a test: call it inside it()');
    return { server, dir };
  };
  return {
    server: () => started().server,
    async runScript(script) {
      const { server, dir } = started();
      const installed = await run(python, ['-c', 'import kubernetes']).then(
        () => true,
        () => false,
      );
      if (!installed)
        throw new Error(
          `${python} cannot import kubernetes: install Debian's python3-kubernetes (sudo apt-get install python3-kubernetes; scripts/test.sh does it through scripts/ensure-python-kubernetes.sh) or set OPS_PYTHON to a python3 with the kubernetes package`,
        );
      const kubeconfig = join(dir, 'kubeconfig');
      await server.writeKubeconfig(kubeconfig);
      const path = fileURLToPath(new URL(`./python/${script}`, import.meta.url));
      const { stdout } = await run(python, [path, kubeconfig], { timeout: 30_000 });
      return JSON.parse(stdout);
    },
  };
}
