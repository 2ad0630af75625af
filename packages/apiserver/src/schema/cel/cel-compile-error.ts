/**
 * cel-js's parse and type-check errors worded as cel-go words them in kube-apiserver's CRD
 * errors: `ERROR: <input>:1:5: undefined field 'nope'` followed by the source line and a caret
 * under the column (`\n | self.nope > 1\n | ....^`).
 */

interface CelJsError {
  summary?: string;
  message: string;
  code?: string;
  range?: { start: number; end: number };
  name?: string;
}

const operatorNames: Record<string, string> = {
  '==': '_==_',
  '!=': '_!=_',
  '<': '_<_',
  '<=': '_<=_',
  '>': '_>_',
  '>=': '_>=_',
  '+': '_+_',
  '-': '_-_',
  '*': '_*_',
  '/': '_/_',
  '%': '_%_',
  in: '@in',
};

/** A cel-go error line for `text` at `offset` of `source`, with the source line and a caret. */
export function celGoError(source: string, offset: number, text: string): string {
  const at = Math.max(0, Math.min(offset, source.length));
  const lineStart = source.lastIndexOf('\n', at - 1) + 1;
  const lineEnd = source.indexOf('\n', at);
  const line = source.slice(lineStart, lineEnd < 0 ? source.length : lineEnd);
  const lineNumber = source.slice(0, at).split('\n').length;
  const column = at - lineStart;
  return `ERROR: <input>:${lineNumber}:${column + 1}: ${text}\n | ${line}\n | ${'.'.repeat(column)}^`;
}

/**
 * The cel-go wording of `error` (thrown by cel-js's parser, or returned by its type checker)
 * for `source`. `knownFunctions` tells an undeclared function (`undeclared reference to
 * 'foo'`) from a call with wrong arguments. Never throws.
 */
export function celGoCompileError(
  source: string,
  error: unknown,
  knownFunctions: ReadonlySet<string>,
): string {
  const celError = error as CelJsError;
  const summary = celError.summary ?? celError.message ?? String(error);
  const start = celError.range?.start ?? 0;
  const noKey = /^No such key: (.+)$/.exec(summary);
  if (noKey) {
    const dot = source.lastIndexOf('.', start);
    return celGoError(source, dot >= 0 ? dot : start, `undefined field '${noKey[1]}'`);
  }
  const index = /^Cannot index type '(.+)'$/.exec(summary);
  if (index && source[start - 1] === '.') {
    return celGoError(source, start - 1, `type '${index[1]}' does not support field selection`);
  }
  const call =
    /^found no matching overload for '(?:[^.(']+\.)?([A-Za-z_][A-Za-z0-9_]*)\((.*)\)'$/.exec(
      summary,
    );
  if (call?.[1] && !knownFunctions.has(call[1])) {
    const paren = source.indexOf(`${call[1]}(`, start);
    return celGoError(
      source,
      paren >= 0 ? paren + call[1].length : start,
      `undeclared reference to '${call[1]}' (in container '')`,
    );
  }
  const operator = /^no such overload: (.+) (==|!=|<=|>=|<|>|\+|-|\*|\/|%|in) (.+)$/.exec(summary);
  if (operator?.[2]) {
    const at = source.indexOf(operator[2], start);
    return celGoError(
      source,
      at >= 0 ? at : start,
      `found no matching overload for '${operatorNames[operator[2]]}' applied to '(${operator[1]}, ${operator[3]})'`,
    );
  }
  if (celError.name === 'ParseError') return celGoError(source, start, `Syntax error: ${summary}`);
  return celGoError(source, start, summary);
}
