import { describe, expect, it } from 'vitest';
import { LabelSelectorError } from './errors/label-selector-error.js';
import { parseLabelSelector } from './parse-label-selector.js';

const labels = { app: 'web', tier: 'front', version: '3', empty: '' };

describe('parseLabelSelector', () => {
  it.each([
    ['', true],
    ['   ', true],
    ['app=web', true],
    ['app==web', true],
    ['app = web', true],
    ['app=db', false],
    ['app!=db', true],
    ['app!=web', false],
    ['missing!=x', true],
    ['app in (web,db)', true],
    ['app in(db)', false],
    ['app notin (db, cache)', true],
    ['app notin (web)', false],
    ['missing notin (web)', true],
    ['missing in (web)', false],
    ['app', true],
    ['missing', false],
    ['!missing', true],
    ['!app', false],
    ['version>2', true],
    ['version<3', false],
    ['app>2', false],
    ['missing>2', false],
    ['empty=', true],
    ['empty', true],
    ['empty in (,x)', true],
    ['app=web,tier=front', true],
    ['app=web,tier!=front', false],
    ['app=web, tier in (front,back), !missing, version', true],
  ])('%j matches %j', (selector, expected) => {
    expect(parseLabelSelector(selector).matches(labels)).toBe(expected);
  });

  it('treats undefined labels as an empty set', () => {
    expect(parseLabelSelector('!a').matches(undefined)).toBe(true);
    expect(parseLabelSelector('a').matches(undefined)).toBe(false);
    expect(parseLabelSelector('a!=b').matches(undefined)).toBe(true);
  });

  it('does not read labels from the prototype chain', () => {
    expect(parseLabelSelector('toString').matches({})).toBe(false);
    expect(parseLabelSelector('!constructor').matches({})).toBe(true);
  });

  it('accepts prefixed keys', () => {
    const selector = parseLabelSelector('app.kubernetes.io/name=demo');
    expect(selector.matches({ 'app.kubernetes.io/name': 'demo' })).toBe(true);
  });

  it('prints a canonical form sorted by key, with sorted unique values', () => {
    const selector = parseLabelSelector(' z in (b,a,b), !y, a==1 , m notin (q), e, n>3 ,o<4, p!=r');
    expect(selector.toString()).toBe('a=1,e,m notin (q),n>3,o<4,p!=r,!y,z in (a,b)');
    expect(parseLabelSelector(selector.toString()).toString()).toBe(selector.toString());
  });

  it('reports the empty selector as everything', () => {
    expect(parseLabelSelector('').isEverything()).toBe(true);
    expect(parseLabelSelector('a').isEverything()).toBe(false);
  });

  it.each([
    ['a=b,', 'a requirement after ","'],
    [',a', 'a label key'],
    ['a in b', "'(' to start the set of values"],
    ['a in (b', '"," or ")"'],
    ['a in ()', "values set can't be empty"],
    ['a notin ()', "values set can't be empty"],
    ['a b', 'an operator'],
    ['a=b c', '"," or the end of the selector'],
    ['!', 'a label key after "!"'],
    ['a>b', 'exactly one integer value'],
    ['a>', 'an integer'],
    ['a=(', 'a value'],
    ['-a=b', 'name part must consist of alphanumeric characters'],
    ['a=b-', 'a valid label must be an empty string'],
    [`a=${'x'.repeat(64)}`, 'must be no more than 63 characters'],
    ['/a=b', 'prefix part must be non-empty'],
    ['a/b/c=d', 'a qualified name must consist'],
    ['Bad_Prefix/a=b', 'prefix part a lowercase RFC 1123 subdomain'],
  ])('rejects %j with a message saying %j', (selector, fragment) => {
    let thrown: unknown;
    try {
      parseLabelSelector(selector);
    } catch (error) {
      thrown = error;
    }
    expect(LabelSelectorError.isInstance(thrown)).toBe(true);
    const error = thrown as LabelSelectorError;
    expect(error.message).toContain(fragment);
    expect(error.message).toContain(selector);
    expect(error.selector).toBe(selector);
  });
});
