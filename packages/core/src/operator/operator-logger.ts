import { type Logger, pino } from 'pino';
import { prettyFactory } from 'pino-pretty';
import type { LogFormat, OperatorFlags } from './operator-flags.js';

/** How {@link operatorLogger} writes, besides the flags. */
export interface OperatorLoggerOptions {
  /** The operator's name: `operator` in every JSON line. */
  name: string;
  /** Where lines go; default `process.stdout` (JSON through pino's own fast destination). */
  write?: (line: string) => void;
  /** Whether the output is a terminal: picks `text` when `--log-format` is unset, and colour. */
  isTTY: boolean;
  /** The environment, for `NO_COLOR` (https://no-color.org) and `FORCE_COLOR`. */
  env: Readonly<Record<string, string | undefined>>;
}

/**
 * The format `--log-format` asks for, else the one for where the lines go: `text` on a
 * terminal (as controller-runtime's development logger, `--zap-devel`), `json` otherwise
 * (a Pod's log, a file, a pipe), one object a line.
 */
export function resolveLogFormat(flag: LogFormat | undefined, isTTY: boolean): LogFormat {
  return flag ?? (isTTY ? 'text' : 'json');
}

/**
 * The operator's pino logger at `flags.logLevel`. `json`: one JSON object a line with
 * `operator: <name>`. `text` (pino-pretty): one line an entry for a person at a terminal,
 * `[12:04:05.123] INFO (widget default/hello): reconciled {"reconcileID":"..."}` (the
 * controller or component, and the object), with an error on the lines after it; coloured on
 * a terminal unless `NO_COLOR` is set (or `FORCE_COLOR` asks for colour).
 */
export function operatorLogger(
  flags: Pick<OperatorFlags, 'logLevel' | 'logFormat'>,
  options: OperatorLoggerOptions,
): Logger {
  const settings = { level: flags.logLevel, base: { operator: options.name } };
  const write = options.write;
  if (resolveLogFormat(flags.logFormat, options.isTTY) === 'json') {
    return write === undefined ? pino(settings) : pino(settings, { write });
  }
  const { NO_COLOR, FORCE_COLOR } = options.env;
  const colorize =
    FORCE_COLOR !== undefined && FORCE_COLOR !== '0'
      ? true
      : options.isTTY && (NO_COLOR === undefined || NO_COLOR === '');
  const pretty = prettyFactory({
    colorize,
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname',
  });
  const out = write ?? ((line: string) => process.stdout.write(line));
  return pino(settings, { write: (line) => out(pretty(forTerminal(line))) });
}

/**
 * A JSON line as pino-pretty shows it best: where it comes from (the controller or component)
 * and the object it is about (`namespace/name`) in pino-pretty's logger-name slot,
 * `INFO (widget default/hello): reconciled`, instead of the object's `name` standing there
 * alone and its namespace among the other fields. The operator's name is left out: a
 * terminal shows one operator.
 */
function forTerminal(line: string): Record<string, unknown> {
  const {
    operator: _operator,
    controller,
    component,
    name,
    namespace,
    ...rest
  } = JSON.parse(line) as Record<string, unknown>;
  const object =
    name === undefined ? undefined : namespace ? `${String(namespace)}/${String(name)}` : name;
  const label = [controller ?? component, object].filter((part) => part !== undefined).join(' ');
  if (name === undefined && namespace !== undefined) rest.namespace = namespace;
  return label === '' ? rest : { ...rest, name: label };
}
