import { describe, expect, it } from 'vitest';
import { fakeTarget } from './fake-target.js';
import { runCorpus } from './run-corpus.js';
import type { FidelityScenario } from './scenario.js';

const scenario = (name: string, run: FidelityScenario['run']): FidelityScenario => ({
  name,
  description: `${name} for tests`,
  run,
});

describe('runCorpus', () => {
  it('sends each scenario to both servers and compares the answers label by label', async () => {
    const local = fakeTarget('local', (request) => ({
      body: { path: request.path, uid: '11111111-1111-1111-1111-111111111111' },
    }));
    const real = fakeTarget('real', (request) => ({
      body: {
        path: request.path,
        uid: '22222222-2222-2222-2222-222222222222',
        ...(request.path === '/b' ? { extra: true } : {}),
      },
    }));
    const seen: string[] = [];
    const result = await runCorpus(
      [
        scenario('area/one', async (session) => {
          await session.send('first', { method: 'GET', path: '/a' });
          await session.probe({ method: 'GET', path: '/setup' });
          await session.send('second', { method: 'GET', path: '/b' });
        }),
      ],
      local,
      real,
      (done, exchanges) => seen.push(`${done.name}:${exchanges.length}`),
    );
    expect(local.sent.map((request) => request.path)).toEqual(['/a', '/setup', '/b']);
    expect(real.sent.map((request) => request.path)).toEqual(['/a', '/setup', '/b']);
    expect(seen).toEqual(['area/one:2']);
    expect(result.failures).toEqual([]);
    expect(result.exchanges).toEqual([
      {
        id: 'area/one: first',
        scenario: 'area/one',
        label: 'first',
        method: 'GET',
        path: '/a',
        match: true,
        differences: [],
        status: { local: 200, real: 200 },
      },
      {
        id: 'area/one: second',
        scenario: 'area/one',
        label: 'second',
        method: 'GET',
        path: '/b',
        match: false,
        differences: [
          { path: 'body.extra', pattern: 'body.extra', kind: 'missing locally', real: true },
        ],
        status: { local: 200, real: 200 },
      },
    ]);
  });

  it('compares with the options the scenario gives', async () => {
    const local = fakeTarget('local', () => ({ body: { items: [1, 2], port: 1 } }));
    const real = fakeTarget('real', () => ({ body: { items: [2, 1], port: 2 } }));
    const result = await runCorpus(
      [
        scenario('area/options', async (session) => {
          await session.send(
            'list',
            { method: 'GET', path: '/' },
            { unordered: ['body.items'], mask: ['body.port'] },
          );
        }),
      ],
      local,
      real,
    );
    expect(result.exchanges[0]?.match).toBe(true);
  });

  it('reports a scenario that stops on one server, and the requests the other got alone', async () => {
    const local = fakeTarget('local', () => ({ status: 415 }));
    const real = fakeTarget('real', () => ({ status: 200 }));
    const result = await runCorpus(
      [
        scenario('area/stops', async (session) => {
          const first = await session.send('first', { method: 'PATCH', path: '/x' });
          if (first.status !== 200) throw new Error(`answered ${first.status}`);
          await session.send('second', { method: 'GET', path: '/x' });
        }),
        scenario('area/next', async (session) => {
          await session.send('runs anyway', { method: 'GET', path: '/y' });
        }),
      ],
      local,
      real,
    );
    expect(result.failures).toEqual([
      { scenario: 'area/stops', server: 'local', message: 'answered 415' },
    ]);
    expect(result.exchanges.map((exchange) => [exchange.id, exchange.match])).toEqual([
      ['area/stops: first', false],
      ['area/stops: second', false],
      ['area/next: runs anyway', false],
    ]);
    expect(result.exchanges[1]?.differences).toEqual([
      { path: '(request)', pattern: '(request)', kind: 'missing locally', real: 'sent' },
    ]);
    expect(result.exchanges[1]?.status).toEqual({ real: 200 });
  });

  it('fails a scenario that uses one label twice', async () => {
    const result = await runCorpus(
      [
        scenario('area/twice', async (session) => {
          await session.send('same', { method: 'GET', path: '/a' });
          await session.send('same', { method: 'GET', path: '/b' });
        }),
      ],
      fakeTarget('local', () => ({})),
      fakeTarget('real', () => ({})),
    );
    expect(result.failures.map((failure) => failure.server)).toEqual(['local', 'real']);
    expect(result.failures[0]?.message).toBe(
      'scenario area/twice sends two requests labelled "same"; labels must be unique within a scenario',
    );
  });
});
