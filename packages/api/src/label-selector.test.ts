import { describe, expect, it } from 'vitest';
import { LabelSelectorError } from './errors/label-selector-error.js';
import {
  labelSelectorFromObject,
  labelSelectorToString,
  matchesLabelSelector,
  Selector,
} from './label-selector.js';
import { parseLabelSelector } from './parse-label-selector.js';

describe('labelSelectorFromObject', () => {
  it('selects nothing when the selector is absent', () => {
    expect(labelSelectorFromObject(undefined).isNothing()).toBe(true);
    expect(labelSelectorFromObject(null).matches({})).toBe(false);
    expect(matchesLabelSelector(undefined, { a: 'b' })).toBe(false);
  });

  it('selects everything when the selector is empty', () => {
    expect(labelSelectorFromObject({}).isEverything()).toBe(true);
    expect(matchesLabelSelector({ matchLabels: {}, matchExpressions: [] }, { a: 'b' })).toBe(true);
    expect(matchesLabelSelector({}, undefined)).toBe(true);
  });

  it('ANDs matchLabels and every matchExpressions operator', () => {
    const selector = {
      matchLabels: { app: 'web' },
      matchExpressions: [
        { key: 'tier', operator: 'In', values: ['front', 'edge'] },
        { key: 'env', operator: 'NotIn', values: ['prod'] },
        { key: 'team', operator: 'Exists' },
        { key: 'legacy', operator: 'DoesNotExist' },
      ],
    };
    expect(matchesLabelSelector(selector, { app: 'web', tier: 'edge', team: 'a' })).toBe(true);
    expect(
      matchesLabelSelector(selector, { app: 'web', tier: 'edge', team: 'a', env: 'dev' }),
    ).toBe(true);
    expect(
      matchesLabelSelector(selector, { app: 'web', tier: 'edge', team: 'a', env: 'prod' }),
    ).toBe(false);
    expect(matchesLabelSelector(selector, { app: 'web', tier: 'back', team: 'a' })).toBe(false);
    expect(matchesLabelSelector(selector, { app: 'web', tier: 'edge' })).toBe(false);
    expect(
      matchesLabelSelector(selector, { app: 'web', tier: 'edge', team: 'a', legacy: '' }),
    ).toBe(false);
    expect(matchesLabelSelector(selector, { app: 'db', tier: 'edge', team: 'a' })).toBe(false);
  });

  it('prints the same string form as the parser reads', () => {
    const text = labelSelectorToString({
      matchLabels: { b: '1' },
      matchExpressions: [
        { key: 'a', operator: 'In', values: ['y', 'x'] },
        { key: 'c', operator: 'DoesNotExist' },
      ],
    });
    expect(text).toBe('a in (x,y),b=1,!c');
    expect(parseLabelSelector(text).requirements).toEqual(
      labelSelectorFromObject({
        matchLabels: { b: '1' },
        matchExpressions: [
          { key: 'a', operator: 'In', values: ['x', 'y'] },
          { key: 'c', operator: 'DoesNotExist' },
        ],
      }).requirements,
    );
  });

  it.each([
    [
      { matchExpressions: [{ key: 'a', operator: 'Equals', values: ['b'] }] },
      '"Equals" is not a valid label selector operator',
    ],
    [{ matchExpressions: [{ key: 'a', operator: 'In', values: [] }] }, "values set can't be empty"],
    [{ matchExpressions: [{ key: 'a', operator: 'NotIn' }] }, "values set can't be empty"],
    [
      { matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x'] }] },
      'values set must be empty',
    ],
    [{ matchLabels: { 'bad key!': 'x' } }, 'key "bad key!"'],
    [{ matchLabels: { a: 'bad value!' } }, 'value "bad value!"'],
  ])('rejects %j', (selector, fragment) => {
    expect(() => labelSelectorFromObject(selector)).toThrowError(fragment);
    try {
      labelSelectorFromObject(selector);
    } catch (error) {
      expect(LabelSelectorError.isInstance(error)).toBe(true);
    }
  });

  it('keeps everything and nothing distinct', () => {
    expect(Selector.everything.matches({})).toBe(true);
    expect(Selector.nothing.matches({})).toBe(false);
    expect(Selector.nothing.isEverything()).toBe(false);
  });
});
