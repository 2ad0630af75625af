/**
 * A line diff in unified format, enough to show in CI which lines of a generated file are
 * stale.
 */

/** Options of {@link unifiedDiff}. */
export interface UnifiedDiffOptions {
  /** The `---` label. Default `a`. */
  oldLabel?: string;
  /** The `+++` label. Default `b`. */
  newLabel?: string;
  /** Unchanged lines shown around each change. Default 3. */
  context?: number;
}

type Op = { kind: ' ' | '-' | '+'; line: string };

/** Above this many cells the middle of a diff is shown as all removed, then all added. */
const maxTableCells = 4_000_000;

/**
 * The unified diff from `oldText` to `newText`: `---`/`+++` labels, then `@@ -a,b +c,d @@`
 * hunks with `context` lines of context, lines prefixed by ` `, `-` or `+`. Empty when the
 * texts are equal. The changed lines are a minimal edit (longest common subsequence) when
 * the differing middle of the texts is at most about 2000 × 2000 lines, else the whole
 * middle is replaced; a missing final newline is not reported.
 */
export function unifiedDiff(
  oldText: string,
  newText: string,
  options: UnifiedDiffOptions = {},
): string {
  if (oldText === newText) return '';
  const context = options.context ?? 3;
  const ops = diffLines(splitLines(oldText), splitLines(newText));
  const changed = ops.flatMap((op, index) => (op.kind === ' ' ? [] : [index]));
  if (changed.length === 0) return '';

  const out = [`--- ${options.oldLabel ?? 'a'}`, `+++ ${options.newLabel ?? 'b'}`];
  let groupStart = 0;
  for (let index = 1; index <= changed.length; index++) {
    const previous = changed[index - 1] ?? 0;
    const current = changed[index];
    if (current !== undefined && current - previous <= 2 * context) continue;
    const first = changed[groupStart] ?? 0;
    out.push(
      ...hunk(ops, Math.max(0, first - context), Math.min(ops.length, previous + context + 1)),
    );
    groupStart = index;
  }
  return `${out.join('\n')}\n`;
}

function hunk(ops: readonly Op[], start: number, end: number): string[] {
  let oldLine = 1;
  let newLine = 1;
  for (const op of ops.slice(0, start)) {
    if (op.kind !== '+') oldLine++;
    if (op.kind !== '-') newLine++;
  }
  const lines = ops.slice(start, end);
  const oldCount = lines.filter((op) => op.kind !== '+').length;
  const newCount = lines.filter((op) => op.kind !== '-').length;
  // As in GNU diff, an empty range starts at the line before it.
  const oldStart = oldCount === 0 ? oldLine - 1 : oldLine;
  const newStart = newCount === 0 ? newLine - 1 : newLine;
  return [
    `@@ -${oldStart},${oldCount} +${newStart},${newCount} @@`,
    ...lines.map((op) => `${op.kind}${op.line}`),
  ];
}

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function diffLines(a: readonly string[], b: readonly string[]): Op[] {
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let endA = a.length;
  let endB = b.length;
  while (endA > prefix && endB > prefix && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const same = (line: string): Op => ({ kind: ' ', line });
  const removed = (line: string): Op => ({ kind: '-', line });
  const added = (line: string): Op => ({ kind: '+', line });
  const middleA = a.slice(prefix, endA);
  const middleB = b.slice(prefix, endB);
  return [
    ...a.slice(0, prefix).map(same),
    ...diffMiddle(middleA, middleB, same, removed, added),
    ...a.slice(endA).map(same),
  ];
}

function diffMiddle(
  a: readonly string[],
  b: readonly string[],
  same: (line: string) => Op,
  removed: (line: string) => Op,
  added: (line: string) => Op,
): Op[] {
  const n = a.length;
  const m = b.length;
  if ((n + 1) * (m + 1) > maxTableCells) return [...a.map(removed), ...b.map(added)];
  // lcs[i * (m + 1) + j]: length of the longest common subsequence of a[i..] and b[j..].
  const width = m + 1;
  const lcs = new Uint32Array((n + 1) * width);
  const at = (i: number, j: number): number => lcs[i * width + j] ?? 0;
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * width + j] =
        a[i] === b[j] ? at(i + 1, j + 1) + 1 : Math.max(at(i + 1, j), at(i, j + 1));
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    const lineA = a[i];
    const lineB = b[j];
    if (lineA !== undefined && lineB !== undefined && lineA === lineB) {
      ops.push(same(lineA));
      i++;
      j++;
    } else if (lineA !== undefined && (lineB === undefined || at(i + 1, j) >= at(i, j + 1))) {
      ops.push(removed(lineA));
      i++;
    } else if (lineB !== undefined) {
      ops.push(added(lineB));
      j++;
    }
  }
  return ops;
}
