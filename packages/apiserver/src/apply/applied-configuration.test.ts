import { describe, expect, it } from 'vitest';
import { builtinResources } from '../registry/builtin-resources.js';
import { checkAppliedConfiguration } from './applied-configuration.js';

const configMaps = builtinResources().find(
  (type) => type.plural === 'configmaps' && type.group === '',
);

describe('checkAppliedConfiguration', () => {
  if (configMaps === undefined) throw new Error('configmaps are built in');
  it('takes name and namespace from the request', () => {
    expect(
      checkAppliedConfiguration(
        configMaps,
        { apiVersion: 'v1', kind: 'ConfigMap', data: {} },
        'ns',
        'c',
      ),
    ).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c', namespace: 'ns' },
      data: {},
    });
  });

  it('refuses other types, managedFields and another name, as kube-apiserver words it', () => {
    expect(() =>
      checkAppliedConfiguration(configMaps, { apiVersion: 'v2', kind: 'ConfigMap' }, 'ns', 'c'),
    ).toThrow('invalid object type: /v2, Kind=ConfigMap');
    expect(() =>
      checkAppliedConfiguration(
        configMaps,
        { apiVersion: 'v1', kind: 'ConfigMap', metadata: { managedFields: [] } },
        'ns',
        'c',
      ),
    ).toThrow('metadata.managedFields must be nil');
    expect(() =>
      checkAppliedConfiguration(
        configMaps,
        { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } },
        'ns',
        'c',
      ),
    ).toThrow('the name of the object (x) does not match the name on the URL (c)');
    expect(() => checkAppliedConfiguration(configMaps, 'text', 'ns', 'c')).toThrow(
      'the body of a server-side apply must be an object',
    );
  });
});
