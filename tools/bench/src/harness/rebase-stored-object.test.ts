import { describe, expect, it } from 'vitest';
import { rebaseStoredObject } from './rebase-stored-object.js';

const fresh = { uid: 'new-uid', now: '2026-01-02T03:04:05Z' };
const written = '2025-12-31T23:59:59Z';

/** What a server might store for `{ metadata: { name }, spec: { port } }`. */
function stored(name: string, port: number): Record<string, unknown> {
  return {
    metadata: {
      name,
      uid: 'old-uid',
      resourceVersion: '17',
      creationTimestamp: written,
      managedFields: [
        {
          manager: '',
          time: written,
          fieldsV1: { 'f:spec': { 'f:ports': { [`k:{"port":${port},"name":"${name}"}`]: {} } } },
        },
      ],
    },
    spec: { port, protocol: 'TCP' },
  };
}
const input = (name: string, port: number) => ({ metadata: { name }, spec: { port } });

describe('rebaseStoredObject', () => {
  it('takes the new values, carries what the server added over with them, and stamps uid and time afresh', () => {
    const result = rebaseStoredObject(stored('a', 80), input('a', 80), input('b', 81), fresh);
    const expected = stored('b', 81);
    const metadata = expected.metadata as Record<string, unknown>;
    metadata.uid = 'new-uid';
    metadata.resourceVersion = '';
    metadata.creationTimestamp = fresh.now;
    (metadata.managedFields as Array<Record<string, unknown>>)[0] = {
      ...(metadata.managedFields as Array<Record<string, unknown>>)[0],
      time: fresh.now,
    };
    // Byte for byte, key order included.
    expect(JSON.stringify(result)).toBe(JSON.stringify(expected));
  });

  it('gives up when the bodies differ in structure', () => {
    const next = { metadata: { name: 'b' }, spec: { port: 81, extra: true } };
    expect(rebaseStoredObject(stored('a', 80), input('a', 80), next, fresh)).toBeUndefined();
  });

  it('gives up when a value the server derived from maps to two new ones', () => {
    // "a" is both the name and the port's name in the old body, but not in the new one.
    const old = { metadata: { name: 'a' }, spec: { port: 80, portName: 'a' } };
    const next = { metadata: { name: 'b' }, spec: { port: 81, portName: 'c' } };
    const server = stored('a', 80);
    (server.spec as Record<string, unknown>).portName = 'a';
    expect(rebaseStoredObject(server, old, next, fresh)).toBeUndefined();
  });
});
