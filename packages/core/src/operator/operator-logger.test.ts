import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import { operatorLogger, resolveLogFormat } from './operator-logger.js';

/** A logger writing into an array, at debug. */
function capture(
  logFormat: 'json' | 'text' | undefined,
  isTTY: boolean,
  env: Record<string, string> = {},
) {
  const lines: string[] = [];
  const logger = operatorLogger(
    { logLevel: 'debug', ...(logFormat ? { logFormat } : {}) },
    { name: 'demo-operator', write: (line) => lines.push(line), isTTY, env },
  );
  return { logger, lines };
}

describe('resolveLogFormat', () => {
  it('is text on a terminal and json elsewhere, unless the flag says', () => {
    expect(resolveLogFormat(undefined, true)).toBe('text');
    expect(resolveLogFormat(undefined, false)).toBe('json');
    expect(resolveLogFormat('json', true)).toBe('json');
    expect(resolveLogFormat('text', false)).toBe('text');
  });
});

describe('operatorLogger', () => {
  it('writes one JSON object a line with the operator name by default off a terminal', () => {
    const { logger, lines } = capture(undefined, false);
    logger.child({ controller: 'widget' }).info({ name: 'hello' }, 'reconciled');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({
      level: 30,
      operator: 'demo-operator',
      controller: 'widget',
      name: 'hello',
      msg: 'reconciled',
    });
  });

  it('writes one plain text line an entry for a terminal, without colour when NO_COLOR is set', () => {
    const { logger, lines } = capture(undefined, true, { NO_COLOR: '1' });
    logger
      .child({ controller: 'widget', namespace: 'default', name: 'hello', reconcileID: 'r1' })
      .info('reconciled');
    logger.child({ component: 'cache' }).debug('synced');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO \(widget default\/hello\): reconciled \{"reconcileID":"r1"\}\n$/,
    );
    expect(lines[1]).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] DEBUG \(cache\): synced\n$/);
    expect(lines.join('')).not.toContain('\u001b[');
  });

  it('colours text on a terminal, and prints an error stack after its line', () => {
    const { logger, lines } = capture('text', true);
    logger.error({ err: new Error('boom') }, 'reconcile failed');
    const line = lines[0] ?? '';
    expect(line).toContain('\u001b[');
    const plain = stripVTControlCharacters(line);
    expect(plain).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] ERROR: reconcile failed *\n/);
    expect(plain).toContain('Error: boom');
    expect(plain).toMatch(/\n\s+at /);
  });

  it('takes --log-format=text off a terminal too, uncoloured', () => {
    const { logger, lines } = capture('text', false);
    logger.warn('careful');
    expect(lines).toEqual([expect.stringMatching(/^\[[\d:.]+\] WARN: careful\n$/)]);
  });
});
