import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpus } from '../src/corpus/index.js';
import { main } from '../src/main.js';
import {
  checkRatchet,
  describeRatchetCheck,
  ratchetOf,
  ratchetUpdateVariable,
  readRatchet,
  writeRatchet,
} from '../src/ratchet.js';
import type { FidelityReport } from '../src/report.js';
import { startServers } from '../src/start-servers.js';

/**
 * `pnpm fidelity` end to end: the whole corpus against the local API server and the real
 * kube-apiserver (`pnpm test:binaries`), held to the ratchet in tools/fidelity/ratchet.json.
 */
const ratchetPath = fileURLToPath(new URL('../ratchet.json', import.meta.url));
let directory: string;
let status: number;
let text: string;
let report: FidelityReport;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'fidelity-e2e-'));
  const out: string[] = [];
  const err: string[] = [];
  status = await main(['--json', join(directory, 'report.json')], {
    corpus,
    startServers,
    log: pino({ level: 'warn' }),
    out: (line) => out.push(line),
    err: (line) => err.push(line),
  });
  if (status !== 0) throw new Error(`ops-fidelity exited ${status}: ${err.join('\n')}`);
  text = out.join('\n');
  report = JSON.parse(await readFile(join(directory, 'report.json'), 'utf8')) as FidelityReport;
}, 170_000);
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe('pnpm fidelity against kube-apiserver', () => {
  it('runs, and counts every request of the corpus', () => {
    expect(status).toBe(0);
    expect(report.servers.real).toMatch(/^v1\.\d+\.\d+/);
    expect(report.requests).toBe(report.exchanges.length);
    expect(report.requests).toBeGreaterThan(150);
    expect(report.matches).toBe(report.exchanges.filter((exchange) => exchange.match).length);
    expect(report.matches).toBeGreaterThan(0);
    expect(report.scenarios.map((scenario) => scenario.name)).toEqual(
      corpus.map((scenario) => scenario.name),
    );
    expect(text).toContain(`${report.requests} requests, ${report.matches} match`);
  });

  // The ratchet: no request that matched when it was recorded may stop matching, and no fewer
  // may match. With OPS_FIDELITY_RATCHET=update the run rewrites it instead (to commit).
  it('matches kube-apiserver on at least the requests the ratchet records', async () => {
    if (process.env[ratchetUpdateVariable] === 'update') {
      await writeRatchet(ratchetPath, ratchetOf(report));
      console.info(`fidelity ratchet rewritten: ${report.matches} of ${report.requests} match`);
    }
    const ratchet = await readRatchet(ratchetPath);
    const check = checkRatchet(ratchet, report);
    const message = describeRatchetCheck(ratchet, check, report);
    if (check.holds && message) console.info(message);
    expect(check.holds, message).toBe(true);
    expect(check.regressed, message).toEqual([]);
  });

  it('sends the whole corpus to kube-apiserver without a scenario stopping there', () => {
    expect(report.failures.filter((failure) => failure.server === 'real')).toEqual([]);
  });

  it('finds server-side apply answered as kube-apiserver answers it, managed fields included', () => {
    const apply = report.exchanges.filter((exchange) => exchange.id.startsWith('patch/apply: '));
    expect(apply.find((exchange) => exchange.id === 'patch/apply: create')?.status).toEqual({
      local: 201,
      real: 201,
    });
    const differences = apply.flatMap((exchange) => exchange.differences);
    expect(
      differences.filter(
        (difference) => difference.path === 'status' || difference.path.includes('managedFields'),
      ),
    ).toEqual([]);
    expect(text).toContain('patch/apply');
  });
});
