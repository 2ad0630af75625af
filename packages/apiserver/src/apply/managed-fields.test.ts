import { describe, expect, it } from 'vitest';
import { FieldSet } from './field-set.js';
import { decodeManagedFields, encodeManagedFields, managerKey } from './managed-fields.js';

describe('managed fields', () => {
  it('decodes entries, merging those of one manager identity, and skipping `{}`', () => {
    const entries = decodeManagedFields([
      {
        manager: 'a',
        operation: 'Update',
        apiVersion: 'v1',
        time: 't',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:data': { 'f:x': {} } },
      },
      {
        manager: 'a',
        operation: 'Update',
        apiVersion: 'v1',
        fieldsV1: { 'f:data': { 'f:y': {} } },
      },
      {},
    ]);
    expect(entries).toHaveLength(1);
    expect(entries[0]?.fields.toFieldsV1()).toEqual({ 'f:data': { 'f:x': {}, 'f:y': {} } });
    expect(decodeManagedFields([{}])).toEqual([]);
  });

  it('says which entry is malformed', () => {
    expect(() => decodeManagedFields({})).toThrow('metadata.managedFields must be a list');
    expect(() => decodeManagedFields([{ manager: 'a', operation: 'Patch' }])).toThrow(
      'metadata.managedFields[0].operation must be "Apply" or "Update", not "Patch"',
    );
    expect(() => decodeManagedFields([{ operation: 'Apply', fieldsType: 'FieldsV2' }])).toThrow(
      'metadata.managedFields[0].fieldsType must be "FieldsV1", not "FieldsV2"',
    );
  });

  it('identifies appliers without their API version, updaters with it', () => {
    const base = { manager: 'm', apiVersion: 'v1', subresource: '' };
    expect(managerKey({ ...base, operation: 'Apply' })).toBe(
      managerKey({ ...base, operation: 'Apply', apiVersion: 'v2' }),
    );
    expect(managerKey({ ...base, operation: 'Update' })).not.toBe(
      managerKey({ ...base, operation: 'Update', apiVersion: 'v2' }),
    );
  });

  it('encodes as kube-apiserver: applies first, then by time and manager, empty sets dropped', () => {
    const fields = FieldSet.of(['f:data']);
    const encoded = encodeManagedFields([
      {
        manager: 'b',
        operation: 'Update',
        apiVersion: 'v1',
        subresource: 'status',
        time: '2026-01-01T00:00:02Z',
        fields,
      },
      {
        manager: 'a',
        operation: 'Update',
        apiVersion: 'v1',
        subresource: '',
        time: '2026-01-01T00:00:01Z',
        fields,
      },
      { manager: 'z', operation: 'Apply', apiVersion: 'v1', subresource: '', fields },
      {
        manager: 'empty',
        operation: 'Apply',
        apiVersion: 'v1',
        subresource: '',
        fields: new FieldSet(),
      },
    ]);
    expect(encoded.map((entry) => entry.manager)).toEqual(['z', 'a', 'b']);
    expect(encoded[0]).toEqual({
      manager: 'z',
      operation: 'Apply',
      apiVersion: 'v1',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:data': {} },
    });
    expect(Object.keys(encoded[2] ?? {})).toEqual([
      'manager',
      'operation',
      'apiVersion',
      'time',
      'fieldsType',
      'fieldsV1',
      'subresource',
    ]);
  });
});
