import { describe, expect, it } from 'vitest';
import { tableRequestOf } from './table-request.js';

const tableAccept = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json';
const query = (text: string) => new URLSearchParams(text);

describe('tableRequestOf', () => {
  it('asks for a Table only when the Accept header does', () => {
    expect(tableRequestOf('application/json', query('includeObject=bogus'))).toBeUndefined();
    expect(tableRequestOf(undefined, query(''))).toBeUndefined();
    expect(tableRequestOf(tableAccept, query(''))).toEqual({ includeObject: 'Metadata' });
  });

  it('reads includeObject as kube-apiserver does', () => {
    expect(tableRequestOf(tableAccept, query('includeObject='))).toEqual({
      includeObject: 'Metadata',
    });
    expect(tableRequestOf(tableAccept, query('includeObject=Object'))).toEqual({
      includeObject: 'Object',
    });
    expect(tableRequestOf(tableAccept, query('includeObject=None'))).toEqual({
      includeObject: 'None',
    });
    expect(() => tableRequestOf(tableAccept, query('includeObject=object'))).toThrow(
      `Unable to convert to Table as requested: includeObject: Invalid value: "object": must be 'Metadata', 'Object', 'None', or empty`,
    );
  });
});
