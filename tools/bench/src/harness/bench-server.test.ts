import { describe, expect, it } from 'vitest';
import { mergeSeedings, type Seeding } from './bench-server.js';

const seeding = (namespace: string, objects: number, kind = 'ConfigMaps'): Seeding => ({
  kind,
  namespace,
  objects,
  requests: objects,
  ms: 10,
});

describe('mergeSeedings', () => {
  it('merges a run of equal seedings over distinct namespaces, and keeps the rest apart', () => {
    const merged = mergeSeedings([
      seeding('measured', 100, 'Pods'),
      seeding('0-tenant', 10),
      seeding('1-tenant', 10),
      seeding('2-tenant', 10),
      // A namespace seeded again (a matrix growing its namespace) starts a new entry.
      seeding('2-tenant', 10),
      seeding('elsewhere', 50),
    ]);
    expect(
      merged.map(({ namespace, objects, requests, ms, namespaces }) => [
        namespace,
        objects,
        requests,
        ms,
        namespaces,
      ]),
    ).toEqual([
      ['measured', 100, 100, 10, 1],
      ['0-tenant', 30, 30, 30, 3],
      ['2-tenant', 10, 10, 10, 1],
      ['elsewhere', 50, 50, 10, 1],
    ]);
  });

  it('keeps apart what the caller groups apart', () => {
    const merged = mergeSeedings(
      [
        { ...seeding('a', 10), benchmark: 'one' },
        { ...seeding('b', 10), benchmark: 'two' },
      ],
      (a, b) => a.benchmark === b.benchmark,
    );
    expect(merged).toHaveLength(2);
  });
});
