import { LabelSelectorError } from './errors/label-selector-error.js';
import {
  createLabelRequirement,
  type LabelOperator,
  type LabelRequirement,
} from './label-requirement.js';
import { Selector } from './label-selector.js';

type TokenKind = 'identifier' | '!' | '!=' | '=' | '==' | '(' | ')' | ',' | '>' | '<' | 'end';

interface Token {
  kind: TokenKind;
  text: string;
  position: number;
}

const symbols: readonly TokenKind[] = ['!=', '==', '!', '=', '(', ')', ',', '>', '<'];
const isSpecial = (char: string): boolean => /[\s!=(),<>]/.test(char);

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const char = text.charAt(i);
    if (/\s/.test(char)) {
      i++;
      continue;
    }
    const symbol = symbols.find((s) => text.startsWith(s, i));
    if (symbol !== undefined) {
      tokens.push({ kind: symbol, text: symbol, position: i });
      i += symbol.length;
      continue;
    }
    const start = i;
    while (i < text.length && !isSpecial(text.charAt(i))) i++;
    tokens.push({ kind: 'identifier', text: text.slice(start, i), position: start });
  }
  tokens.push({ kind: 'end', text: '', position: text.length });
  return tokens;
}

/**
 * Parses the string form of a label selector, as `kubectl get -l` and the `labelSelector`
 * query parameter take it: comma-separated requirements, all of which must hold.
 *
 * | form | meaning |
 * | --- | --- |
 * | `a=b`, `a==b` | label `a` is `b` |
 * | `a!=b` | label `a` is absent or not `b` |
 * | `a in (x,y)` | label `a` is `x` or `y` |
 * | `a notin (x,y)` | label `a` is absent or neither `x` nor `y` |
 * | `a` | label `a` exists |
 * | `!a` | label `a` does not exist |
 * | `a>1`, `a<1` | label `a` is an integer greater / less than 1 |
 *
 * An empty or blank string selects everything. Whitespace around tokens is ignored.
 *
 * @throws {LabelSelectorError} naming the position and what was expected.
 */
export function parseLabelSelector(text: string): Selector {
  const tokens = tokenize(text);
  let index = 0;
  const peek = (): Token => tokens[index] ?? { kind: 'end', text: '', position: text.length };
  const next = (): Token => {
    const token = peek();
    if (index < tokens.length) index++;
    return token;
  };
  const fail = (token: Token, expected: string): never => {
    const found = token.kind === 'end' ? 'end of string' : `"${token.text}"`;
    throw new LabelSelectorError(
      `invalid label selector "${text}": found ${found} at position ${token.position}, expected ${expected}; write requirements such as a=b, a!=b, a in (x,y), a notin (x,y), a or !a, separated by commas`,
      text,
    );
  };
  const requirement = (kind: LabelOperator, key: string, values: string[]): LabelRequirement =>
    createLabelRequirement(key, kind, values, text);

  const parseValueSet = (): string[] => {
    const open = next();
    if (open.kind !== '(') fail(open, "'(' to start the set of values");
    const values: string[] = [];
    if (peek().kind === ')') {
      next();
      return values;
    }
    for (;;) {
      const token = peek();
      if (token.kind === 'identifier') {
        values.push(next().text);
      } else if (token.kind === ',' || token.kind === ')') {
        values.push('');
      } else {
        fail(token, 'a value, "," or ")"');
      }
      const separator = next();
      if (separator.kind === ')') return values;
      if (separator.kind !== ',') fail(separator, '"," or ")"');
    }
  };

  const parseRequirement = (): LabelRequirement => {
    const first = next();
    if (first.kind === '!') {
      const key = next();
      if (key.kind !== 'identifier') fail(key, 'a label key after "!"');
      return requirement('DoesNotExist', key.text, []);
    }
    if (first.kind !== 'identifier') fail(first, 'a label key');
    const key = first.text;
    const operator = peek();
    switch (operator.kind) {
      case 'end':
      case ',':
        return requirement('Exists', key, []);
      case '=':
      case '==':
      case '!=': {
        next();
        const value = peek();
        const exact = value.kind === 'identifier' ? next().text : '';
        if (value.kind !== 'identifier' && value.kind !== 'end' && value.kind !== ',') {
          fail(value, 'a value');
        }
        return requirement(operator.kind === '!=' ? 'NotEquals' : 'Equals', key, [exact]);
      }
      case '>':
      case '<': {
        next();
        const value = next();
        if (value.kind !== 'identifier') fail(value, 'an integer');
        return requirement(operator.kind === '>' ? 'GreaterThan' : 'LessThan', key, [value.text]);
      }
      case 'identifier':
        if (operator.text === 'in' || operator.text === 'notin') {
          next();
          return requirement(operator.text === 'in' ? 'In' : 'NotIn', key, parseValueSet());
        }
        return fail(operator, 'an operator (=, ==, !=, in, notin, >, <)');
      default:
        return fail(operator, 'an operator (=, ==, !=, in, notin, >, <)');
    }
  };

  const requirements: LabelRequirement[] = [];
  if (peek().kind === 'end') return Selector.everything;
  for (;;) {
    requirements.push(parseRequirement());
    const separator = next();
    if (separator.kind === 'end') break;
    if (separator.kind !== ',') fail(separator, '"," or the end of the selector');
    if (peek().kind === 'end') fail(peek(), 'a requirement after ","');
  }
  return Selector.fromRequirements(requirements);
}
