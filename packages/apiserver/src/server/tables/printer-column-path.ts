import { JSONPath } from 'jsonpath-plus';

/** A printer column's JSONPath, compiled once: {@link printerColumnPath}. */
export interface PrinterColumnPath {
  /** The path as written in the CRD (`.status.conditions[?(@.type=="Ready")].status`). */
  readonly source: string;
  /** Every value the path selects in `object`, in document order; `[]` when none. */
  find(object: unknown): unknown[];
}

/**
 * Compiles a printer column's JSONPath as kube-apiserver reads it (client-go's
 * `util/jsonpath`, which the CRD table convertor and kubectl use), evaluated by jsonpath-plus
 * after rewriting the few places where the two dialects differ:
 *
 * - a field may hold escaped dots: `.metadata.labels.app\.kubernetes\.io/name`;
 * - a negative index counts from the end: `.spec.ports[-1]` is the last port;
 * - a filter without a comparison tests presence: `[?(@.ready)]` keeps an item whose `ready`
 *   is `false` too;
 * - missing fields select nothing rather than failing (kube's `AllowMissingKeys(true)`).
 *
 * The surrounding `{...}` is optional. Throws an Error naming the path when it is not one
 * (unbalanced brackets or quotes), so callers can refuse it when the CRD is written.
 */
export function printerColumnPath(source: string): PrinterColumnPath {
  const path = toJsonPathPlus(source);
  return {
    source,
    find(object) {
      if (object === null || typeof object !== 'object') return [];
      try {
        const found = JSONPath({ path, json: object, wrap: true, eval: 'safe' }) as unknown;
        return Array.isArray(found) ? found : [];
      } catch {
        return [];
      }
    },
  };
}

/** `$`-rooted jsonpath-plus syntax for a client-go JSONPath. */
function toJsonPathPlus(source: string): string {
  let text = source.trim();
  if (text.startsWith('{') && text.endsWith('}')) text = text.slice(1, -1).trim();
  if (text.startsWith('$')) text = text.slice(1);
  const invalid = (why: string) =>
    new Error(`printer column JSONPath "${source}" is not valid: ${why}`);
  let out = '$';
  let i = 0;
  while (i < text.length) {
    const char = text[i];
    if (char === '.') {
      if (text[i + 1] === '.') {
        // Recursive descent: the name (or bracket) that follows applies at every depth.
        out += '..';
        i += 2;
        if (text[i] === '[' || i >= text.length) continue;
      } else {
        i++;
      }
      let name = '';
      while (i < text.length && text[i] !== '.' && text[i] !== '[') {
        if (text[i] === '\\' && i + 1 < text.length) i++;
        name += text[i];
        i++;
      }
      if (name === '') throw invalid(`an empty field name at character ${i}`);
      out += name === '*' ? '[*]' : `[${JSON.stringify(name)}]`;
      continue;
    }
    if (char === '[') {
      const end = closingBracket(text, i);
      if (end < 0) throw invalid(`"[" at character ${i + 1} is never closed`);
      out += `[${bracket(text.slice(i + 1, end))}]`;
      i = end + 1;
      continue;
    }
    // A leading field without a dot (`status.ready`), as client-go also accepts.
    if (i === 0) {
      text = `.${text}`;
      continue;
    }
    throw invalid(`unexpected "${char}" at character ${i + 1}`);
  }
  return out;
}

/** The index of the `]` closing the `[` at `open`, skipping quoted text and parentheses. */
function closingBracket(text: string, open: number): number {
  let quote: string | undefined;
  let depth = 0;
  for (let i = open + 1; i < text.length; i++) {
    const char = text[i];
    if (quote !== undefined) {
      if (char === '\\') i++;
      else if (char === quote) quote = undefined;
    } else if (char === '"' || char === "'") quote = char;
    else if (char === '(') depth++;
    else if (char === ')') depth--;
    else if (char === ']' && depth === 0) return i;
  }
  return -1;
}

/** The inside of a bracket: a filter, a negative index, or as it is (index, slice, union, key). */
function bracket(inner: string): string {
  const content = inner.trim();
  const filter = /^\?\((.*)\)$/s.exec(content);
  if (filter) {
    const expression = (filter[1] ?? '').trim();
    // Presence: `@.ready` (no operator) keeps the item whatever the value, as client-go does.
    if (/^@(\.[\w-]+)+$/.test(expression)) return `?(${expression} !== undefined)`;
    return `?(${expression})`;
  }
  const negative = /^-(\d+)$/.exec(content);
  if (negative) {
    const n = Number(negative[1]);
    return n === 1 ? '-1:' : `-${n}:-${n - 1}`;
  }
  return content;
}
