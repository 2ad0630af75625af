import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  checkRatchet,
  describeRatchetCheck,
  type Ratchet,
  ratchetOf,
  ratchetUpdateVariable,
  readRatchet,
  writeRatchet,
} from './ratchet.js';
import { buildReport, type FidelityReport } from './report.js';

const corpus = [{ name: 'crud', description: 'CRUD', run: async () => undefined }];

/** A report of a run in which the requests `matching` (of `labels`) matched. */
function reportOf(labels: string[], matching: string[]): FidelityReport {
  return buildReport(
    corpus,
    {
      exchanges: labels.map((label) => ({
        id: `crud: ${label}`,
        scenario: 'crud',
        label,
        method: 'GET' as const,
        path: '/api/v1/configmaps',
        match: matching.includes(label),
        differences: matching.includes(label)
          ? []
          : [
              {
                path: 'status',
                pattern: 'status',
                kind: 'differs' as const,
                local: 200,
                real: 404,
              },
            ],
        status: { local: 200, real: matching.includes(label) ? 200 : 404 },
      })),
      failures: [],
    },
    { local: 'v1.33.0', real: 'v1.37.2' },
  );
}

const ratchet: Ratchet = {
  kubernetes: 'v1.37.2',
  requests: 3,
  matches: 2,
  matching: ['crud: create', 'crud: get'],
};

describe('the fidelity ratchet', () => {
  it('records the matching requests of a report, sorted', () => {
    expect(ratchetOf(reportOf(['get', 'create', 'list'], ['get', 'create']))).toEqual(ratchet);
  });

  it('holds when the same requests match, and says nothing', () => {
    const report = reportOf(['create', 'get', 'list'], ['create', 'get']);
    const check = checkRatchet(ratchet, report);
    expect(check).toEqual({ regressed: [], improved: [], matches: 2, holds: true });
    expect(describeRatchetCheck(ratchet, check, report)).toBe('');
  });

  it('fails when a recorded request stops matching, naming it, even if another starts to', () => {
    const report = reportOf(['create', 'get', 'list'], ['create', 'list']);
    const check = checkRatchet(ratchet, report);
    expect(check).toMatchObject({
      regressed: ['crud: get'],
      improved: ['crud: list'],
      holds: false,
    });
    const text = describeRatchetCheck(ratchet, check, report);
    expect(text).toContain('fidelity fell below the ratchet: 2 of 3 requests match');
    expect(text).toContain('  - crud: get\n');
    expect(text).toContain(`${ratchetUpdateVariable}=update`);
  });

  it('names a recorded request that is no longer sent', () => {
    const report = reportOf(['create', 'list'], ['create', 'list']);
    const check = checkRatchet(ratchet, report);
    expect(check.holds).toBe(false);
    expect(describeRatchetCheck(ratchet, check, report)).toContain(
      '  - crud: get (no longer in the corpus)',
    );
  });

  it('fails when fewer requests match than recorded, even with no id named', () => {
    const report = reportOf(['create', 'get'], ['create', 'get']);
    expect(checkRatchet({ ...ratchet, matches: 3 }, report).holds).toBe(false);
  });

  it('holds when fidelity improves, and tells how to raise the ratchet', () => {
    const report = reportOf(['create', 'get', 'list'], ['create', 'get', 'list']);
    const check = checkRatchet(ratchet, report);
    expect(check).toMatchObject({ regressed: [], improved: ['crud: list'], holds: true });
    const text = describeRatchetCheck(ratchet, check, report);
    expect(text).toContain('fidelity improved: 3 of 3 requests match, the ratchet records 2');
    expect(text).toContain(`${ratchetUpdateVariable}=update`);
  });

  it('round-trips through its file, and refuses a file that is not a ratchet', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'ratchet-'));
    try {
      const path = join(directory, 'ratchet.json');
      await writeRatchet(path, ratchet);
      expect(await readRatchet(path)).toEqual(ratchet);
      await writeFile(path, '{"matches": "many"}');
      await expect(readRatchet(path)).rejects.toThrow(/is not a fidelity ratchet/);
      await expect(readRatchet(join(directory, 'missing.json'))).rejects.toThrow(
        /cannot read the fidelity ratchet/,
      );
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});
