import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ControlPlaneAssetsError } from '@ops/envtest';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeTarget } from './fake-target.js';
import { type FidelityDependencies, main, usage } from './main.js';
import type { FidelityReport } from './report.js';
import type { FidelityScenario } from './scenario.js';

const corpus: FidelityScenario[] = [
  {
    name: 'crud/configmap',
    description: 'ConfigMaps',
    async run(session) {
      await session.send('get', { method: 'GET', path: '/api/v1/namespaces/x/configmaps/a' });
    },
  },
  {
    name: 'patch/apply',
    description: 'apply',
    async run(session) {
      await session.send('create', { method: 'PATCH', path: '/api/v1/namespaces/x/configmaps/a' });
    },
  },
];

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'fidelity-main-'));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

/** Dependencies with fake servers: the local one answers a PATCH with 415. */
function dependencies(overrides: Partial<FidelityDependencies> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  let stopped = 0;
  const version = (gitVersion: string) => ({ body: { gitVersion } });
  const deps: FidelityDependencies = {
    corpus,
    log: pino({ level: 'silent' }),
    out: (text) => out.push(text),
    err: (text) => err.push(text),
    async startServers() {
      return {
        local: fakeTarget('local', (request) =>
          request.path === '/version'
            ? version('v1.33.0-ops.0')
            : request.method === 'PATCH'
              ? { status: 415, body: { kind: 'Status', code: 415 } }
              : { body: { kind: 'ConfigMap' } },
        ),
        real: fakeTarget('real', (request) =>
          request.path === '/version' ? version('v1.37.2') : { body: { kind: 'ConfigMap' } },
        ),
        async stop() {
          stopped++;
        },
      };
    },
    ...overrides,
  };
  return { deps, out, err, stopped: () => stopped };
}

describe('main', () => {
  it('prints the report, writes it as JSON, stops the servers and exits 0 despite differences', async () => {
    const { deps, out, err, stopped } = dependencies();
    const file = join(directory, 'report.json');
    expect(await main(['--json', file], deps)).toBe(0);
    expect(err).toEqual([]);
    expect(stopped()).toBe(1);
    expect(out.join('\n')).toContain('2 requests, 1 match (50.0%), 1 differ');
    expect(out.join('\n')).toContain('    status: 415  vs  200');
    const report = JSON.parse(await readFile(file, 'utf8')) as FidelityReport;
    expect(report.servers).toEqual({ local: 'v1.33.0-ops.0', real: 'v1.37.2' });
    expect(report.requests).toBe(2);
    expect(report.matches).toBe(1);
    expect(report.exchanges.map((exchange) => exchange.id)).toEqual([
      'crud/configmap: get',
      'patch/apply: create',
    ]);
  });

  it('runs only the scenarios --only names, by name or area', async () => {
    const { deps, out } = dependencies();
    expect(await main(['--only', 'patch'], deps)).toBe(0);
    expect(out.join('\n')).toContain('1 requests, 0 match (0.0%), 1 differ');
    const again = dependencies();
    expect(await main(['--only', 'crud/configmap'], again.deps)).toBe(0);
    expect(again.out.join('\n')).toContain('1 requests, 1 match (100.0%), 0 differ');
  });

  it('refuses --only names that select no scenario, before starting anything', async () => {
    const { deps, err } = dependencies({
      startServers: () => Promise.reject(new Error('must not start')),
    });
    expect(await main(['--only', 'crud,nope'], deps)).toBe(2);
    expect(err).toEqual([
      'ops-fidelity: --only names no scenario: nope; --list shows the scenarios',
    ]);
  });

  it('lists the scenarios', async () => {
    const { deps, out } = dependencies();
    expect(await main(['--list'], deps)).toBe(0);
    expect(out).toEqual(['crud/configmap  ConfigMaps\npatch/apply     apply']);
  });

  it('prints the usage for --help, and with an error for an unknown option', async () => {
    const help = dependencies();
    expect(await main(['--help'], help.deps)).toBe(0);
    expect(help.out).toEqual([usage]);
    const wrong = dependencies();
    expect(await main(['--jsn', 'x'], wrong.deps)).toBe(2);
    expect(wrong.err[0]).toMatch(/^ops-fidelity: Unknown option '--jsn'/);
    expect(wrong.err[0]).toContain(usage);
  });

  it('exits 1 with the message of a control plane that cannot be built', async () => {
    const { deps, err, out } = dependencies({
      startServers: () =>
        Promise.reject(
          new ControlPlaneAssetsError('Go is not installed: install Go 1.26 or newer'),
        ),
    });
    expect(await main([], deps)).toBe(1);
    expect(err).toEqual(['ops-fidelity: Go is not installed: install Go 1.26 or newer']);
    expect(out).toEqual([]);
  });

  it('exits 1 when a server does not start', async () => {
    const { deps, err } = dependencies({
      startServers: () => Promise.reject(new Error('kube-apiserver exited with code 1')),
    });
    expect(await main([], deps)).toBe(1);
    expect(err).toEqual([
      'ops-fidelity: the servers did not start: kube-apiserver exited with code 1',
    ]);
  });
});
