import { describe, expect, it } from 'vitest';
import { fieldTypeFromStrategicSchema } from './field-type.js';
import {
  conflictsAllowedByLastApplied,
  lastAppliedAnnotation,
  withLastApplied,
} from './last-applied.js';

const type = fieldTypeFromStrategicSchema(undefined);
const cm = (data: Record<string, string>, lastApplied?: unknown) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: {
    name: 'c',
    ...(lastApplied
      ? { annotations: { [lastAppliedAnnotation]: JSON.stringify(lastApplied) } }
      : {}),
  },
  data,
});

describe('last-applied configuration', () => {
  it('allows the fields whose live value is still the last applied one', () => {
    const live = cm({ a: '1', b: 'changed' }, { data: { a: '1', b: '2' } });
    const allowed = conflictsAllowedByLastApplied(live, type);
    expect(allowed?.has(['f:data', 'f:a'])).toBe(true);
    expect(allowed?.has(['f:data', 'f:b'])).toBe(false);
    expect(conflictsAllowedByLastApplied(cm({ a: '1' }), type)).toBeUndefined();
  });

  it('rewrites an existing annotation to the configuration, sorted, without itself', () => {
    const object = cm({ a: '2' }, { data: { a: '1' } });
    const config = {
      kind: 'ConfigMap',
      apiVersion: 'v1',
      metadata: { name: 'c' },
      data: { a: '2' },
    };
    const updated = withLastApplied(object, config) as typeof object;
    expect(updated.metadata.annotations?.[lastAppliedAnnotation]).toBe(
      '{"apiVersion":"v1","data":{"a":"2"},"kind":"ConfigMap","metadata":{"name":"c"}}\n',
    );
    const plain = cm({ a: '2' });
    expect(withLastApplied(plain, config)).toBe(plain);
  });
});
