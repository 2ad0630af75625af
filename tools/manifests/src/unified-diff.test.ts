import { describe, expect, it } from 'vitest';
import { unifiedDiff } from './unified-diff.js';

const lines = (count: number, prefix = 'line') =>
  Array.from({ length: count }, (_, index) => `${prefix} ${index + 1}`);

describe('unifiedDiff', () => {
  it('is empty for equal texts', () => {
    expect(unifiedDiff('a\nb\n', 'a\nb\n')).toBe('');
    expect(unifiedDiff('a\nb\n', 'a\nb')).toBe('');
  });

  it('shows a change with three lines of context', () => {
    const before = `${lines(10).join('\n')}\n`;
    const after = before.replace('line 5\n', 'line five\n');
    expect(unifiedDiff(before, after, { oldLabel: 'a/x', newLabel: 'b/x' })).toBe(
      [
        '--- a/x',
        '+++ b/x',
        '@@ -2,7 +2,7 @@',
        ' line 2',
        ' line 3',
        ' line 4',
        '-line 5',
        '+line five',
        ' line 6',
        ' line 7',
        ' line 8',
        '',
      ].join('\n'),
    );
  });

  it('splits distant changes into hunks and joins close ones', () => {
    const before = lines(30);
    const after = [...before];
    after[1] = 'changed 2';
    after[5] = 'changed 6';
    after[25] = 'changed 26';
    const diff = unifiedDiff(before.join('\n'), after.join('\n'), { context: 2 });
    expect(diff.match(/^@@.*@@$/gm)).toEqual(['@@ -1,8 +1,8 @@', '@@ -24,5 +24,5 @@']);
  });

  it('diffs insertions and deletions minimally', () => {
    const diff = unifiedDiff('a\nb\nc\nd\n', 'a\nc\nd\ne\n', { context: 0 });
    expect(diff).toBe(
      ['--- a', '+++ b', '@@ -2,1 +1,0 @@', '-b', '@@ -4,0 +4,1 @@', '+e', ''].join('\n'),
    );
  });

  it('diffs from and to nothing', () => {
    expect(unifiedDiff('', 'x\ny\n', { oldLabel: '/dev/null' })).toBe(
      ['--- /dev/null', '+++ b', '@@ -0,0 +1,2 @@', '+x', '+y', ''].join('\n'),
    );
    expect(unifiedDiff('x\n', '', { newLabel: '/dev/null' })).toBe(
      ['--- a', '+++ /dev/null', '@@ -1,1 +0,0 @@', '-x', ''].join('\n'),
    );
  });

  it('replaces a huge differing middle wholesale instead of building a huge table', () => {
    const before = lines(2500, 'old');
    const after = lines(2500, 'new');
    const diff = unifiedDiff(before.join('\n'), after.join('\n'));
    expect(diff.split('\n').filter((line) => line.startsWith('-old')).length).toBe(2500);
    expect(diff.split('\n').filter((line) => line.startsWith('+new')).length).toBe(2500);
    expect(diff.indexOf('+new 1')).toBeGreaterThan(diff.indexOf('-old 2500'));
  });
});
