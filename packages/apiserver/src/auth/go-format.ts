/**
 * Go's text formatting, as far as kube-apiserver's messages depend on it. Internal to the
 * auth module: messages are only exact if they are formatted the way Go formats them.
 */

const printable = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

const namedEscapes: Record<string, string> = {
  '\u0007': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
  '"': '\\"',
  '\\': '\\\\',
};

const hex = (code: number, width: number): string => code.toString(16).padStart(width, '0');

/**
 * `s` as Go's `%q` prints it (`strconv.Quote`): in double quotes, with `"` and `\` escaped,
 * the C escapes `\a \b \f \n \r \t \v`, other non-printable characters as `\xHH`, `\uHHHH` or
 * `\UHHHHHHHH`, and printable Unicode kept as is. A lone surrogate prints as U+FFFD, as it
 * does once the string is encoded to UTF-8.
 */
export function goQuote(s: string): string {
  let out = '"';
  for (const char of s) {
    const named = namedEscapes[char];
    if (named !== undefined) {
      out += named;
      continue;
    }
    const code = char.codePointAt(0) ?? 0;
    if (code >= 0xd800 && code <= 0xdfff) {
      out += '\ufffd';
    } else if (printable.test(char)) {
      out += char;
    } else if (code < 0x80) {
      out += `\\x${hex(code, 2)}`;
    } else if (code <= 0xffff) {
      out += `\\u${hex(code, 4)}`;
    } else {
      out += `\\U${hex(code, 8)}`;
    }
  }
  return `${out}"`;
}

/**
 * What Go's `fmt.Sprintf(format)` gives with no arguments, which is how kube-apiserver turns a
 * finished message into an error (`fmt.Errorf(msg)`): `%%` becomes `%`, any other verb
 * becomes `%!<verb>(MISSING)`, and a `%` at the end becomes `%!(NOVERB)`. Text without `%` is
 * returned unchanged.
 */
export function goSprintfNoArgs(format: string): string {
  if (!format.includes('%')) return format;
  return format.replace(
    /%([+\-# 0]*)(\d*)(\.\d*)?([\s\S]?)/gu,
    (_match, _flags, _width, _precision, verb: string) => {
      if (verb === '') return '%!(NOVERB)';
      if (verb === '%') return '%';
      return `%!${verb}(MISSING)`;
    },
  );
}

/**
 * The message of an aggregate of errors, as apimachinery's `utilerrors.NewAggregate` prints
 * it: one message bare, several (duplicates dropped) as `[a, b]`. Empty for no messages.
 */
export function aggregateMessage(messages: readonly string[]): string {
  if (messages.length === 0) return '';
  if (messages.length === 1) return messages[0] ?? '';
  const unique = [...new Set(messages)];
  return unique.length === 1 ? (unique[0] ?? '') : `[${unique.join(', ')}]`;
}
