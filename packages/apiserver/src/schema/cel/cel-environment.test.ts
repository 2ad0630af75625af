import { describe, expect, it } from 'vitest';
import { createCelEnvironment } from './cel-environment.js';

const env = createCelEnvironment().registerVariable('self', 'dyn');
const run = (expression: string, self: unknown = null) => env.evaluate(expression, { self });

describe('createCelEnvironment', () => {
  it('has the lists library of kube-apiserver', () => {
    expect(run('[1, 2, 2, 5].isSorted()')).toBe(true);
    expect(run('["b", "a"].isSorted()')).toBe(false);
    expect(run('[1, 2, 3].sum()')).toBe(6n);
    expect(run('[].sum()')).toBe(0n);
    expect(run('[1.5, 2.5].sum()')).toBe(4);
    expect(run('[3, 1, 2].min()')).toBe(1n);
    expect(run('["a", "c", "b"].max()')).toBe('c');
    expect(run('[1, 2, 1].indexOf(1)')).toBe(0n);
    expect(run('[1, 2, 1].lastIndexOf(1)')).toBe(2n);
    expect(run('[1, 2].indexOf(3)')).toBe(-1n);
    expect(() => run('self.min()', [])).toThrow(/min\(list\) called on an empty list/);
  });

  it('has the regex library of kube-apiserver', () => {
    expect(run('"abc 123 def 456".find("[0-9]+")')).toBe('123');
    expect(run('"abc".find("[0-9]+")')).toBe('');
    expect(run('"abc 123 def 456".findAll("[0-9]+")')).toEqual(['123', '456']);
    expect(run('"1 2 3".findAll("[0-9]", 2)')).toEqual(['1', '2']);
  });

  it('has the strings extension, built in and added', () => {
    expect(run('"a-b-c".replace("-", "+")')).toBe('a+b+c');
    expect(run('"a-b-c".replace("-", "+", 1)')).toBe('a+b-c');
    expect(run('"hello".charAt(1)')).toBe('e');
    expect(run('"hello".charAt(5)')).toBe('');
    expect(() => run('"hello".charAt(6)')).toThrow(/index out of range: 6/);
    expect(run('"abc".reverse()')).toBe('cba');
    expect(run('"A,B".lowerAscii().split(",")')).toEqual(['a', 'b']);
    expect(run('"x".matches("^[a-z]$") && " y ".trim() == "y"')).toBe(true);
  });

  it('has optional types, as kube-apiserver enables them', () => {
    expect(run('self.?a.orValue(7)', {})).toBe(7n);
    expect(run('self.?a.orValue(7)', { a: 1n })).toBe(1n);
  });
});
