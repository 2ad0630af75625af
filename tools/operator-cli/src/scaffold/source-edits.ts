/**
 * The edits `ops-operator create api` and `create webhook` make to files an operator already
 * has (src/operator.ts, src/manifests.ts, the kustomizations, package.json): each one either
 * applies, finds itself applied already, or says exactly what the user must add by hand
 * (when the file was changed so that the place to insert is gone). Nothing here writes.
 */
import YAML from 'yaml';

/** The outcome of one edit of a file's text. */
export type EditResult =
  /** Changed: the new text. */
  | { kind: 'changed'; text: string }
  /** Already there: nothing to change. */
  | { kind: 'present' }
  /** The place to insert is gone: what to add by hand. */
  | { kind: 'missing'; instruction: string };

/** Line `line` of a module's imports, added after its last import statement. */
export function addImport(text: string, line: string): EditResult {
  if (text.split('\n').includes(line)) return { kind: 'present' };
  const lines = text.split('\n');
  let last = -1;
  for (let index = 0; index < lines.length; index++) {
    const current = lines[index] ?? '';
    if (
      /^import\s.*\sfrom\s'[^']+';\s*$/.test(current) ||
      /^\}\s*from\s'[^']+';\s*$/.test(current)
    ) {
      last = index;
    }
  }
  lines.splice(last + 1, 0, line);
  return { kind: 'changed', text: lines.join('\n') };
}

/**
 * Adds `item` to the array literal that follows the match of `anchor` (e.g.
 * `/export const customResources = \[/`), before its closing bracket; `present` when the array
 * already holds `item` as a whole word.
 */
export function addToArray(text: string, anchor: RegExp, item: string, where: string): EditResult {
  const match = anchor.exec(text);
  if (match === null) {
    return {
      kind: 'missing',
      instruction: `${where}: no ${anchor.source.replaceAll('\\', '')} ... ] found: add ${item} to it`,
    };
  }
  const open = match.index + match[0].length;
  let depth = 1;
  let close = open;
  for (; close < text.length && depth > 0; close++) {
    const character = text[close];
    if (character === '[') depth++;
    else if (character === ']') depth--;
  }
  close--;
  const inner = text.slice(open, close);
  const escaped = item.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  if (new RegExp(`(^|[^\\w$])${escaped}(?![\\w$])`).test(inner)) return { kind: 'present' };
  const trimmed = inner.trimEnd();
  const next =
    trimmed.trim() === ''
      ? item
      : trimmed.endsWith(',')
        ? `${trimmed} ${item}${inner.slice(trimmed.length)}`
        : `${trimmed}, ${item}${inner.slice(trimmed.length)}`;
  return { kind: 'changed', text: text.slice(0, open) + next + text.slice(close) };
}

/**
 * Inserts `line` after the last line matching `after` (keeping that line's indentation);
 * `present` when a line matching `present` exists.
 */
export function addLineAfter(
  text: string,
  line: string,
  after: RegExp,
  present: RegExp,
  instruction: string,
): EditResult {
  const lines = text.split('\n');
  if (lines.some((current) => present.test(current))) return { kind: 'present' };
  let last = -1;
  for (let index = 0; index < lines.length; index++) {
    if (after.test(lines[index] ?? '')) last = index;
  }
  if (last < 0) return { kind: 'missing', instruction };
  const indentation = /^\s*/.exec(lines[last] ?? '')?.[0] ?? '';
  lines.splice(last + 1, 0, `${indentation}${line}`);
  return { kind: 'changed', text: lines.join('\n') };
}

/**
 * Adds `entry` to the `resources` list (or the list `key`, e.g. `configurations`) of a
 * kustomization.yaml, keeping its comments; a list it adds comes last, after a blank line.
 * `present` when listed already.
 */
export function addKustomizeResource(
  text: string,
  entry: string,
  where: string,
  key = 'resources',
): EditResult {
  const document = YAML.parseDocument(text);
  const resources = document.get(key);
  if (resources !== undefined && !YAML.isSeq(resources)) {
    return {
      kind: 'missing',
      instruction: `${where}: "${key}" is not a list: add "- ${entry}" to its ${key}`,
    };
  }
  if (YAML.isSeq(resources)) {
    if (resources.items.some((item) => YAML.isScalar(item) && item.value === entry)) {
      return { kind: 'present' };
    }
    resources.add(document.createNode(entry));
  } else if (YAML.isMap(document.contents) && document.contents.items.length > 0) {
    // A new top-level list after the others, set off by a blank line as the templates write it.
    const name = document.createNode(key);
    name.spaceBefore = true;
    document.set(name, [entry]);
  } else {
    document.set(key, [entry]);
  }
  return { kind: 'changed', text: document.toString() };
}

/** One change between two versions of a file: lines `from` to `to` of the old one replaced. */
interface Hunk {
  from: number;
  to: number;
  lines: string[];
}

/** The changes that make `before` into `after` (a longest-common-subsequence line diff). */
export function lineHunks(before: readonly string[], after: readonly string[]): Hunk[] {
  const n = before.length;
  const m = after.length;
  const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      const row = lcs[i] as number[];
      row[j] =
        before[i] === after[j]
          ? ((lcs[i + 1] as number[])[j + 1] as number) + 1
          : Math.max((lcs[i + 1] as number[])[j] as number, row[j + 1] as number);
    }
  }
  const hunks: Hunk[] = [];
  let i = 0;
  let j = 0;
  let current: Hunk | undefined;
  while (i < n || j < m) {
    if (i < n && j < m && before[i] === after[j]) {
      if (current) hunks.push(current);
      current = undefined;
      i++;
      j++;
    } else if (
      j < m &&
      (i >= n || ((lcs[i] as number[])[j + 1] as number) >= ((lcs[i + 1] as number[])[j] as number))
    ) {
      current ??= { from: i, to: i, lines: [] };
      current.lines.push(after[j] as string);
      j++;
    } else {
      current ??= { from: i, to: i, lines: [] };
      current.to = i + 1;
      i++;
    }
  }
  if (current) hunks.push(current);
  return hunks;
}

/**
 * Applies to `current` the changes that turn `before` into `after` (what a template renders
 * without and with a feature), where `current` is `before` as the user may have changed it
 * elsewhere: each change is placed by the lines it replaces, or for an insertion by the (up
 * to three) lines before it since the previous change (the top of the file when none). `missing` lists, for each change whose place is
 * gone, the lines to add or remove by hand.
 */
export function applyTemplateChange(
  current: string,
  before: string,
  after: string,
  where: string,
): EditResult {
  if (current === after) return { kind: 'present' };
  if (current === before) return { kind: 'changed', text: after };
  const old = before.split('\n');
  const lines = current.split('\n');
  const problems: string[] = [];
  let cursor = 0;
  // The end (in `before`) of the change placed last: lines before it have moved.
  let placed = 0;
  for (const hunk of lineHunks(old, after.split('\n'))) {
    const removed = old.slice(hunk.from, hunk.to);
    const anchor = hunk.from > 0 ? old[hunk.from - 1] : undefined;
    let at = -1;
    if (removed.length > 0) {
      for (let index = cursor; index + removed.length <= lines.length; index++) {
        if (removed.every((line, offset) => lines[index + offset] === line)) {
          at = index;
          break;
        }
      }
    } else if (anchor === undefined) {
      at = 0;
    } else {
      // Placed after the (up to) three lines before it since the last change, which must be
      // there in a row; right after the last change when there are none.
      const context = old.slice(Math.max(placed, hunk.from - 3), hunk.from);
      for (let index = cursor; index + context.length <= lines.length; index++) {
        if (context.every((line, offset) => lines[index + offset] === line)) {
          at = index + context.length;
          break;
        }
      }
    }
    if (at < 0) {
      const what = [
        ...removed.map((line) => `- ${line}`),
        ...hunk.lines.map((line) => `+ ${line}`),
      ].join('\n');
      problems.push(
        `${where}: ${anchor !== undefined && removed.length === 0 ? `after the line "${anchor.trim()}"` : 'change'}\n${what}`,
      );
      placed = hunk.to;
      continue;
    }
    lines.splice(at, removed.length, ...hunk.lines);
    cursor = at + hunk.lines.length;
    placed = hunk.to;
  }
  if (problems.length > 0) return { kind: 'missing', instruction: problems.join('\n') };
  return { kind: 'changed', text: lines.join('\n') };
}
