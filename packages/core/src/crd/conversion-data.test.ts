import { describe, expect, it } from 'vitest';
import { conversionData } from './conversion-data.js';
import { widget } from './test-widget.js';

const data = conversionData(widget);
const spoke = (annotations?: Record<string, string>) => ({
  apiVersion: 'example.com/v1alpha1',
  kind: 'Widget',
  metadata: { name: 'w', ...(annotations === undefined ? {} : { annotations }) },
  spec: { replicas: 1 },
});

describe('conversionData', () => {
  it('names the annotation after the group', () => {
    expect(data.annotation).toBe('example.com/conversion-data');
  });

  it('saves the kept hub fields as JSON beside the other annotations, without changing the spoke', () => {
    const input = spoke({ team: 'a' });
    const saved = data.save(input, { spec: { scale: { max: 4 } } });
    expect(saved.metadata.annotations).toEqual({
      team: 'a',
      'example.com/conversion-data': '{"spec":{"scale":{"max":4}}}',
    });
    expect(input).toEqual(spoke({ team: 'a' }));
  });

  it('writes no annotation when nothing is kept, and drops a stale one', () => {
    expect(data.save(spoke(), { spec: { scale: { max: undefined } }, status: {} })).toEqual(
      spoke(),
    );
    const stale = spoke({
      'example.com/conversion-data': '{"spec":{"scale":{"max":1}}}',
      team: 'a',
    });
    expect(data.save(stale, {}).metadata).toEqual({ name: 'w', annotations: { team: 'a' } });
    expect(data.save(spoke({ 'example.com/conversion-data': '{}' }), {}).metadata).toEqual({
      name: 'w',
    });
  });

  it('restores the kept fields and the metadata without the annotation', () => {
    const saved = data.save(spoke({ team: 'a' }), { status: { message: 'hi' } });
    expect(data.restore(saved)).toEqual({
      metadata: { name: 'w', annotations: { team: 'a' } },
      kept: { status: { message: 'hi' } },
    });
    const only = data.save(spoke(), { spec: { scale: { max: 2 } } });
    expect(data.restore(only)).toEqual({
      metadata: { name: 'w' },
      kept: { spec: { scale: { max: 2 } } },
    });
  });

  it('restores nothing from a spoke written by a client', () => {
    expect(data.restore(spoke({ team: 'a' }))).toEqual({
      metadata: { name: 'w', annotations: { team: 'a' } },
      kept: undefined,
    });
  });

  it('refuses an annotation that is not a JSON object, naming it and the fix', () => {
    for (const value of ['{not json', '[1]', '"text"']) {
      expect(() => data.restore(spoke({ 'example.com/conversion-data': value }))).toThrow(
        'annotation example.com/conversion-data is not the JSON object a conversion wrote (edited by hand?): remove it, or restore the value read from the API',
      );
    }
  });
});
