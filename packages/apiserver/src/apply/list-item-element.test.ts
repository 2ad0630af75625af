import { describe, expect, it } from 'vitest';
import type { ApplyListType } from './field-type.js';
import { scalarType } from './field-type.js';
import { listItemElement } from './list-item-element.js';

const ports: ApplyListType = {
  kind: 'list',
  listType: 'map',
  keys: ['containerPort', 'protocol'],
  keyDefaults: { protocol: 'TCP' },
  item: scalarType,
};

describe('listItemElement', () => {
  it('keys map-list items by their sorted keys, defaults filling omitted ones', () => {
    expect(listItemElement(ports, { containerPort: 80 }, 0)).toBe(
      'k:{"containerPort":80,"protocol":"TCP"}',
    );
    expect(listItemElement({ ...ports, keyDefaults: {} }, { containerPort: 80 }, 0)).toBe(
      'k:{"containerPort":80}',
    );
  });

  it('names set items by value and atomic items by index', () => {
    const set: ApplyListType = { ...ports, listType: 'set', keys: [], keyDefaults: {} };
    expect(listItemElement(set, 'a', 0)).toBe('v:"a"');
    expect(listItemElement({ ...set, listType: 'atomic' }, 'a', 4)).toBe('i:4');
  });

  it('refuses items it cannot name, in structured-merge-diff words', () => {
    const named: ApplyListType = { ...ports, keys: ['name'], keyDefaults: {} };
    expect(() => listItemElement(named, { port: 1 }, 0)).toThrow(
      'element 0: associative list with keys has an element that omits all key fields ["name"] (and doesn\'t have default values for any key fields)',
    );
    expect(() => listItemElement(named, 'x', 1)).toThrow(
      'element 1: associative list with keys may not have non-map elements',
    );
    const set: ApplyListType = { ...named, listType: 'set', keys: [] };
    expect(() => listItemElement(set, { a: 1 }, 2)).toThrow(
      "element 2: associative list without keys has an element that's a map type",
    );
  });
});
