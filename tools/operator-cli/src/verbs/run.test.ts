import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperatorProject } from '../operator-project.js';
import { runLocally } from './run.js';

let directory: string;
let bundle: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'ops-operator-run-'));
  bundle = join(directory, 'main.js');
  // Stands in for the operator: prints the arguments it was started with.
  await writeFile(bundle, 'process.stdout.write(JSON.stringify(process.argv.slice(2)));\n');
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

function project(): OperatorProject {
  return {
    root: directory,
    packageName: 'plain-operator',
    name: 'plain-operator',
    version: '0.1.0',
    buildContext: directory,
    dockerfile: join(directory, 'Dockerfile'),
    dockerBuildArgs: {},
    defaultImage: 'plain-operator:latest',
    namespace: 'plain-operator-system',
    namePrefix: 'plain-operator-',
    webhooks: undefined,
    localCertDir: join(directory, 'certs'),
  };
}

async function argumentsOf(argv: string[]): Promise<string[]> {
  const { child, exited } = await runLocally(project(), {
    argv,
    bundle,
    stdio: ['ignore', 'pipe', 'inherit'],
    log: () => undefined,
  });
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  expect(await exited).toBe(0);
  return JSON.parse(output) as string[];
}

describe('runLocally, for an operator without webhooks', () => {
  it('disables the webhook server, which would otherwise wait for a certificate', async () => {
    expect(await argumentsOf(['--log-level', 'debug'])).toEqual([
      '--disable-webhooks',
      '--log-level',
      'debug',
    ]);
  });

  it('passes --disable-webhooks once when it is given', async () => {
    expect(await argumentsOf(['--disable-webhooks'])).toEqual(['--disable-webhooks']);
  });
});
