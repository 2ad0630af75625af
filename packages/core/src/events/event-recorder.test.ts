import type { KubernetesObject } from '@ops/api';
import { pino } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { ApiError, type ApiErrorReason } from '../errors/api-error.js';
import type { CoreEvent, EventPatch, EventSink } from './core-event.js';
import { EventRecorder, type EventRecorderOptions } from './event-recorder.js';

/**
 * Records writes; `failCreates` / `failPatches` make the next calls reject; `createErrors`
 * are thrown by the next creates, in order (`store` first: stored, then the error thrown,
 * as when the answer of an applied write is lost).
 */
class FakeSink implements EventSink {
  readonly created: CoreEvent[] = [];
  readonly patches: { namespace: string; name: string; patch: EventPatch }[] = [];
  readonly createErrors: { error: Error; store?: boolean }[] = [];
  createCalls = 0;
  failCreates = 0;
  failPatches = 0;

  async create(event: CoreEvent): Promise<unknown> {
    this.createCalls++;
    const next = this.createErrors.shift();
    if (next) {
      if (next.store) this.created.push(structuredClone(event));
      throw next.error;
    }
    if (this.failCreates > 0) {
      this.failCreates--;
      throw new Error('apiserver unavailable');
    }
    this.created.push(structuredClone(event));
    return event;
  }

  async patch(namespace: string, name: string, patch: EventPatch): Promise<unknown> {
    if (this.failPatches > 0) {
      this.failPatches--;
      throw new Error(`events "${name}" not found`);
    }
    this.patches.push({ namespace, name, patch: structuredClone(patch) });
    return patch;
  }
}

/** The error the client throws for an HTTP answer `code` with `reason`. */
function apiError(code: number, reason: ApiErrorReason): ApiError {
  return new ApiError(code, reason, `${code} ${reason}`, { code, reason });
}

function collectingLogger() {
  const lines: { level: number; msg: string }[] = [];
  const logger = pino(
    { level: 'debug' },
    { write: (line: string) => lines.push(JSON.parse(line)) },
  );
  return { logger, lines };
}

function setup(options: Partial<EventRecorderOptions> = {}) {
  let current = Date.parse('2024-05-01T12:00:00Z');
  const clock = {
    now: () => current,
    advance: (ms: number) => {
      current += ms;
    },
  };
  const sink = new FakeSink();
  const { logger, lines } = collectingLogger();
  const recorder = new EventRecorder({
    sink,
    component: 'database-operator',
    reportingInstance: 'operator-0',
    now: clock.now,
    logger,
    ...options,
  });
  return { clock, sink, recorder, lines };
}

const database = (name = 'orders'): KubernetesObject => ({
  apiVersion: 'example.com/v1',
  kind: 'Database',
  metadata: { name, namespace: 'shop', uid: `uid-${name}`, resourceVersion: '42' },
});

describe('EventRecorder writes core/v1 Events', () => {
  it('creates an Event about the object', async () => {
    const { sink, recorder } = setup();
    recorder.event(database(), 'Normal', 'Created', 'created the primary');
    await recorder.flush();
    expect(sink.created).toHaveLength(1);
    const event = sink.created[0];
    expect(event?.metadata.name).toMatch(/^orders\.[0-9a-f]{16}$/);
    expect(event).toEqual({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: event?.metadata.name, namespace: 'shop' },
      involvedObject: {
        apiVersion: 'example.com/v1',
        kind: 'Database',
        name: 'orders',
        namespace: 'shop',
        uid: 'uid-orders',
        resourceVersion: '42',
      },
      reason: 'Created',
      message: 'created the primary',
      type: 'Normal',
      source: { component: 'database-operator', host: 'operator-0' },
      reportingComponent: 'database-operator',
      reportingInstance: 'operator-0',
      firstTimestamp: '2024-05-01T12:00:00Z',
      lastTimestamp: '2024-05-01T12:00:00Z',
      count: 1,
    });
  });

  it('puts Events about cluster-scoped objects in default', async () => {
    const { sink, recorder } = setup();
    recorder.event(
      { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-1', uid: 'n1' } },
      'Warning',
      'DiskPressure',
      'disk is full',
    );
    await recorder.flush();
    expect(sink.created[0]?.metadata.namespace).toBe('default');
    expect(sink.created[0]?.involvedObject).toEqual({
      apiVersion: 'v1',
      kind: 'Node',
      name: 'node-1',
      uid: 'n1',
    });
  });

  it('formats messages with eventf', async () => {
    const { sink, recorder } = setup();
    recorder.eventf(
      database(),
      'Warning',
      'BackupFailed',
      'backup %s failed after %d tries',
      'b1',
      3,
    );
    await recorder.flush();
    expect(sink.created[0]?.message).toBe('backup b1 failed after 3 tries');
  });
});

describe('EventRecorder aggregation', () => {
  it('patches count and lastTimestamp of a repeated Event', async () => {
    const { clock, sink, recorder } = setup();
    recorder.event(database(), 'Warning', 'BackupFailed', 'disk full');
    clock.advance(30_000);
    recorder.event(database(), 'Warning', 'BackupFailed', 'disk full');
    clock.advance(30_000);
    recorder.event(database(), 'Warning', 'BackupFailed', 'disk full');
    await recorder.flush();
    expect(sink.created).toHaveLength(1);
    const name = sink.created[0]?.metadata.name;
    expect(sink.patches).toEqual([
      {
        namespace: 'shop',
        name,
        patch: { count: 2, lastTimestamp: '2024-05-01T12:00:30Z', message: 'disk full' },
      },
      {
        namespace: 'shop',
        name,
        patch: { count: 3, lastTimestamp: '2024-05-01T12:01:00Z', message: 'disk full' },
      },
    ]);
  });

  it('keeps Events apart that differ in object, type, reason or message', async () => {
    const { sink, recorder } = setup();
    recorder.event(database(), 'Warning', 'BackupFailed', 'disk full');
    recorder.event(database('other'), 'Warning', 'BackupFailed', 'disk full');
    recorder.event(database(), 'Normal', 'BackupFailed', 'disk full');
    recorder.event(database(), 'Warning', 'RestoreFailed', 'disk full');
    recorder.event(database(), 'Warning', 'BackupFailed', 'network down');
    // A new resourceVersion of the same object is the same object.
    const updated = database();
    if (updated.metadata) updated.metadata.resourceVersion = '43';
    recorder.event(updated, 'Warning', 'BackupFailed', 'disk full');
    await recorder.flush();
    expect(sink.created).toHaveLength(5);
    expect(sink.patches).toHaveLength(1);
  });

  it('starts a new Event once the window has passed since the last occurrence', async () => {
    const { clock, sink, recorder } = setup({ aggregationWindowMs: 60_000 });
    recorder.event(database(), 'Normal', 'Synced', 'ok');
    clock.advance(60_000);
    recorder.event(database(), 'Normal', 'Synced', 'ok');
    clock.advance(60_001);
    recorder.event(database(), 'Normal', 'Synced', 'ok');
    await recorder.flush();
    expect(sink.patches).toHaveLength(1);
    expect(sink.created).toHaveLength(2);
    expect(sink.created[1]).toMatchObject({
      count: 1,
      firstTimestamp: '2024-05-01T12:02:00Z',
    });
    expect(sink.created[1]?.metadata.name).not.toBe(sink.created[0]?.metadata.name);
  });

  it('creates the Event again when the patch fails (e.g. it expired)', async () => {
    const { clock, sink, recorder } = setup();
    recorder.event(database(), 'Warning', 'BackupFailed', 'disk full');
    await recorder.flush();
    sink.failPatches = 1;
    clock.advance(1000);
    recorder.event(database(), 'Warning', 'BackupFailed', 'disk full');
    await recorder.flush();
    expect(sink.created).toHaveLength(2);
    expect(sink.created[1]).toMatchObject({
      metadata: { name: sink.created[0]?.metadata.name },
      count: 2,
      firstTimestamp: '2024-05-01T12:00:00Z',
      lastTimestamp: '2024-05-01T12:00:01Z',
    });
  });

  it('writes repeats as new Events with the count when the sink cannot patch', async () => {
    const created: CoreEvent[] = [];
    const { clock, recorder } = setup({
      sink: { create: async (event) => created.push(event) },
    });
    recorder.event(database(), 'Normal', 'Synced', 'ok');
    clock.advance(1000);
    recorder.event(database(), 'Normal', 'Synced', 'ok');
    await recorder.flush();
    expect(created.map((event) => event.count)).toEqual([1, 2]);
    expect(created[1]?.metadata.name).not.toBe(created[0]?.metadata.name);
    expect(created[1]?.firstTimestamp).toBe('2024-05-01T12:00:00Z');
  });
});

describe('EventRecorder rate limiting', () => {
  it('lets an object emit 25 Events at once, then one per 5 minutes', async () => {
    const { clock, sink, recorder, lines } = setup();
    for (let i = 0; i < 30; i++) recorder.event(database(), 'Normal', 'Step', `step ${i}`);
    // Another object has its own bucket.
    recorder.event(database('other'), 'Normal', 'Step', 'step 0');
    await recorder.flush();
    expect(sink.created).toHaveLength(26);
    expect(sink.created.filter((event) => event.involvedObject.name === 'orders')).toHaveLength(25);
    expect(lines.filter((line) => /rate limit/.test(line.msg))).toHaveLength(5);

    clock.advance(299_999);
    recorder.event(database(), 'Normal', 'Step', 'late');
    await recorder.flush();
    expect(sink.created).toHaveLength(26);
    clock.advance(1);
    recorder.event(database(), 'Normal', 'Step', 'later');
    recorder.event(database(), 'Normal', 'Step', 'too soon');
    await recorder.flush();
    expect(sink.created.map((event) => event.message).slice(26)).toEqual(['later']);
  });

  it('counts dropped repeats, so the next Event written has the true count', async () => {
    const { clock, sink, recorder } = setup({ burst: 2, refillIntervalMs: 10_000 });
    for (let i = 0; i < 5; i++) recorder.event(database(), 'Warning', 'Failing', 'boom');
    await recorder.flush();
    expect(sink.created.map((event) => event.count)).toEqual([1]);
    expect(sink.patches.map((patch) => patch.patch.count)).toEqual([2]);
    clock.advance(10_000);
    recorder.event(database(), 'Warning', 'Failing', 'boom');
    await recorder.flush();
    expect(sink.patches.map((patch) => patch.patch.count)).toEqual([2, 6]);
  });

  it('creates an Event whose first occurrence was dropped once a token is back', async () => {
    const { clock, sink, recorder } = setup({ burst: 1, refillIntervalMs: 10_000 });
    recorder.event(database(), 'Normal', 'A', 'first');
    recorder.event(database(), 'Normal', 'B', 'dropped');
    clock.advance(10_000);
    recorder.event(database(), 'Normal', 'B', 'dropped');
    await recorder.flush();
    expect(sink.created.map((event) => [event.reason, event.count])).toEqual([
      ['A', 1],
      ['B', 2],
    ]);
    expect(sink.created[1]?.firstTimestamp).toBe('2024-05-01T12:00:00Z');
  });
});

describe('EventRecorder retries writes that may pass', () => {
  it('sends a create again after a timeout, 429, 5xx, a Conflict or a failed connection, then writes it', async () => {
    const { sink, recorder, lines } = setup({ retryDelayMs: 1 });
    sink.createErrors.push(
      { error: apiError(500, 'InternalError') },
      { error: apiError(409, 'Conflict') },
      { error: apiError(429, 'TooManyRequests') },
      {
        error: new TypeError('fetch failed', {
          cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }),
        }),
      },
    );
    recorder.event(database(), 'Normal', 'Created', 'made it');
    await recorder.flush();
    expect(sink.createCalls).toBe(5);
    expect(sink.created.map((event) => event.reason)).toEqual(['Created']);
    expect(lines.filter((line) => line.msg === 'could not write event; retrying')).toHaveLength(4);
    expect(lines.some((line) => line.level >= 50)).toBe(false);
  });

  it('takes AlreadyExists on a retry as written: the lost answer was of a stored create', async () => {
    const { sink, recorder, lines } = setup({ retryDelayMs: 1 });
    sink.createErrors.push(
      { error: apiError(504, 'Timeout'), store: true },
      { error: apiError(409, 'AlreadyExists') },
    );
    recorder.event(database(), 'Normal', 'Created', 'made it');
    await recorder.flush();
    expect(sink.createCalls).toBe(2);
    expect(sink.created).toHaveLength(1);
    expect(lines.some((line) => line.level >= 50)).toBe(false);
  });

  it('drops the Event with an error after maxWriteAttempts, and at once on a 4xx', async () => {
    const { sink, recorder, lines } = setup({ retryDelayMs: 1, maxWriteAttempts: 3 });
    for (let attempt = 0; attempt < 3; attempt++)
      sink.createErrors.push({ error: apiError(503, 'ServiceUnavailable') });
    recorder.event(database(), 'Normal', 'Created', 'made it');
    await recorder.flush();
    expect(sink.createCalls).toBe(3);
    sink.createErrors.push({ error: apiError(403, 'Forbidden') });
    recorder.event(database(), 'Normal', 'Deleted', 'gone');
    await recorder.flush();
    expect(sink.createCalls).toBe(4);
    expect(sink.created).toHaveLength(0);
    expect(lines.filter((line) => line.msg === 'could not write event; dropped')).toHaveLength(2);
  });

  it('stops retrying once closed: the waiting write is dropped with a warning', async () => {
    const { sink, recorder, lines } = setup({ retryDelayMs: 60_000 });
    sink.createErrors.push(
      { error: apiError(0, 'ConnectionFailed') },
      { error: apiError(0, 'ConnectionFailed') },
    );
    recorder.event(database(), 'Normal', 'Created', 'made it');
    await vi.waitFor(() => expect(sink.createCalls).toBe(1));
    const started = Date.now();
    await recorder.close();
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(sink.createCalls).toBe(2);
    expect(sink.created).toHaveLength(0);
    expect(lines.some((line) => line.msg === 'could not write event while closing; dropped')).toBe(
      true,
    );
    expect(lines.some((line) => line.level >= 50)).toBe(false);
  });
});

describe('EventRecorder never throws into the caller', () => {
  it('logs and drops failed writes, and recreates after a failed create', async () => {
    const { clock, sink, recorder, lines } = setup({ maxWriteAttempts: 1 });
    sink.failCreates = 1;
    recorder.event(database(), 'Warning', 'BackupFailed', 'disk full');
    await recorder.flush();
    expect(sink.created).toHaveLength(0);
    expect(lines.some((line) => line.msg === 'could not write event; dropped')).toBe(true);
    clock.advance(1000);
    recorder.event(database(), 'Warning', 'BackupFailed', 'disk full');
    await recorder.flush();
    expect(sink.created).toHaveLength(1);
    expect(sink.created[0]?.count).toBe(2);
    expect(sink.patches).toHaveLength(0);
  });

  it('survives a sink that throws synchronously', async () => {
    const { recorder, lines } = setup({
      sink: {
        create: () => {
          throw new TypeError('not a function');
        },
      },
    });
    expect(() => recorder.event(database(), 'Normal', 'Ok', 'fine')).not.toThrow();
    await recorder.flush();
    expect(lines.some((line) => line.msg === 'could not write event; dropped')).toBe(true);
  });

  it('drops invalid calls with a log line instead of throwing', async () => {
    const { sink, recorder, lines } = setup();
    recorder.event(database(), 'Error' as never, 'Bad', 'x');
    recorder.event(database(), 'Normal', '', 'x');
    recorder.event({ metadata: { name: 'x' } }, 'Normal', 'Ok', 'x');
    recorder.event({}, 'Normal', 'Ok', 'x');
    await recorder.flush();
    expect(sink.created).toHaveLength(0);
    const messages = lines.map((line) => line.msg);
    expect(messages[0]).toMatch(/unsupported event type "Error": use "Normal" or "Warning"/);
    expect(messages[1]).toMatch(/without a reason/);
    expect(messages[2]).toMatch(/without kind and metadata\.name/);
    expect(messages).toHaveLength(4);
  });

  it('drops Events when the sink falls too far behind', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const created: CoreEvent[] = [];
    const { recorder, lines } = setup({
      maxPendingWrites: 2,
      sink: {
        create: async (event) => {
          await gate;
          created.push(event);
        },
      },
    });
    for (const name of ['a', 'b', 'c']) recorder.event(database(name), 'Normal', 'Ok', 'x');
    release();
    await recorder.flush();
    expect(created.map((event) => event.involvedObject.name)).toEqual(['a', 'b']);
    expect(lines.some((line) => /too many events waiting/.test(line.msg))).toBe(true);
  });

  it('is silent by default and rejects bad limits when built', () => {
    expect(() => new EventRecorder({ sink: new FakeSink(), component: 'x', burst: 0 })).toThrow(
      RangeError,
    );
    const recorder = new EventRecorder({ sink: new FakeSink(), component: 'x' });
    expect(() => recorder.event(database(), 'Normal', 'Ok', 'fine')).not.toThrow();
    return recorder.flush();
  });
});
