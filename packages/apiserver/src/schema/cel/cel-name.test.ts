import { describe, expect, it } from 'vitest';
import { escapeCelName } from './cel-name.js';

describe('escapeCelName', () => {
  it('keeps plain identifiers', () => {
    expect(escapeCelName('minReplicas')).toBe('minReplicas');
    expect(escapeCelName('_x1')).toBe('_x1');
  });

  it('escapes reserved words and the characters kube-apiserver escapes', () => {
    expect(escapeCelName('namespace')).toBe('__namespace__');
    expect(escapeCelName('foo-bar')).toBe('foo__dash__bar');
    expect(escapeCelName('a.b/c')).toBe('a__dot__b__slash__c');
    expect(escapeCelName('a__b')).toBe('a__underscores__b');
  });

  it('refuses names it cannot escape', () => {
    expect(escapeCelName('1st')).toBeUndefined();
    expect(escapeCelName('a b')).toBeUndefined();
    expect(escapeCelName('')).toBeUndefined();
  });
});
