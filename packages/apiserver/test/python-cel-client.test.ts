import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiServer } from '../src/index.js';

// CEL validation rules through a client written in another language: the official Python
// client (Debian's python3-kubernetes, installed for scripts/test.sh as for
// python-client.test.ts).
const run = promisify(execFile);
const python = process.env.OPS_PYTHON ?? '/usr/bin/python3';
const script = fileURLToPath(new URL('./python/cel_client.py', import.meta.url));
let server: ApiServer;
let dir: string;

beforeAll(async () => {
  server = await ApiServer.start({ cluster: false });
  dir = await mkdtemp(join(tmpdir(), 'python-cel-client-'));
});
afterAll(async () => {
  await server?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('CEL validation rules through the official Python client', () => {
  it('creates an object that holds the rule and gets the 422 for one that breaks it', async () => {
    // Fails (never skips) where the client is missing, saying how to install it.
    const installed = await run(python, ['-c', 'import kubernetes']).then(
      () => true,
      () => false,
    );
    if (!installed)
      throw new Error(
        `${python} cannot import kubernetes: install Debian's python3-kubernetes (sudo apt-get install python3-kubernetes) or set OPS_PYTHON to a python3 with the kubernetes package`,
      );
    const kubeconfig = join(dir, 'kubeconfig');
    await server.writeKubeconfig(kubeconfig);
    const { stdout } = await run(python, [script, kubeconfig], { timeout: 30_000 });
    expect(JSON.parse(stdout)).toEqual({
      created: 'fits',
      refused: {
        status: 422,
        message: 'Limit.cel.ops.dev "breaks" is invalid: spec: Invalid value: min 3 exceeds max 2',
      },
    });
  });
});
