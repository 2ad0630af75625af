/**
 * Schema `pattern`s are Go (RE2) regular expressions, matched unanchored. This compiles one
 * into a JavaScript `RegExp`, translating what RE2 spells differently (leading `(?i)`, `(?s)`,
 * `(?m)` flag groups, `\A` and `\z`, POSIX classes such as `[[:alpha:]]`). Compiled patterns
 * are cached. RE2 constructs JavaScript lacks (and JavaScript-only ones such as
 * back-references, which RE2 rejects) are not emulated: they compile or fail as JavaScript
 * decides.
 */

/** A compiled pattern, or why it does not compile. */
export type CompiledPattern = { ok: true; regexp: RegExp } | { ok: false; error: string };

const cache = new Map<string, CompiledPattern>();
const cacheLimit = 1000;

const posixClasses: Record<string, string> = {
  alnum: '0-9A-Za-z',
  alpha: 'A-Za-z',
  ascii: '\\x00-\\x7F',
  blank: '\\t ',
  cntrl: '\\x00-\\x1F\\x7F',
  digit: '0-9',
  graph: '!-~',
  lower: 'a-z',
  print: ' -~',
  punct: '!-\\/:-@\\[-`{-~',
  space: '\\t\\n\\v\\f\\r ',
  upper: 'A-Z',
  word: '0-9A-Za-z_',
  xdigit: '0-9A-Fa-f',
};

function translate(pattern: string): { source: string; flags: string } {
  let source = pattern;
  let flags = '';
  const leading = /^\(\?([imsU]+)\)/.exec(source);
  if (leading) {
    for (const flag of leading[1] ?? '') {
      if ((flag === 'i' || flag === 'm' || flag === 's') && !flags.includes(flag)) flags += flag;
    }
    source = source.slice(leading[0].length);
  }
  source = source
    .replace(/\[:(\^?)([a-z]+):\]/g, (whole, negated: string, name: string) => {
      const range = posixClasses[name];
      if (range === undefined) return whole;
      return negated ? `^${range}` : range;
    })
    .replace(/(^|[^\\])((?:\\\\)*)\\A/g, '$1$2^')
    .replace(/(^|[^\\])((?:\\\\)*)\\z/g, '$1$2$(?![\\s\\S])');
  return { source, flags };
}

/** `pattern` compiled as a JavaScript RegExp with RE2 spellings translated; never throws. */
export function compileGoPattern(pattern: string): CompiledPattern {
  const cached = cache.get(pattern);
  if (cached) return cached;
  let compiled: CompiledPattern;
  try {
    const { source, flags } = translate(pattern);
    compiled = { ok: true, regexp: new RegExp(source, flags) };
  } catch (error) {
    compiled = { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  if (cache.size >= cacheLimit) cache.clear();
  cache.set(pattern, compiled);
  return compiled;
}
