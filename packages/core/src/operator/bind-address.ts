import { OperatorFlagError } from '../errors/operator-flag-error.js';
import type { BindAddress } from '../manager/manager.js';

const hostPattern = /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\])$/;

/**
 * Parses a bind address as controller-runtime's flags take it: `host:port`, `:port` (all
 * interfaces), `[::1]:port`, or `0` (disabled, returned as `false`). `source` names where
 * the value came from (`--metrics-bind-address` or `METRICS_BIND_ADDRESS`) for the error.
 *
 * @throws {OperatorFlagError} naming `source` when the value has no port, a port outside
 * 0..65535, or a host that is not a host name or IP address.
 */
export function parseBindAddress(value: string, source: string): BindAddress {
  if (value === '0') return false;
  const match = /^(.*):(\d{1,5})$/.exec(value);
  const host = match?.[1] ?? '';
  const port = Number(match?.[2]);
  if (match === null || port > 65_535 || (host !== '' && !hostPattern.test(host))) {
    throw new OperatorFlagError(
      `${source} must be host:port, :port or 0 (disabled), with a port from 0 to 65535, got ${JSON.stringify(value)}`,
    );
  }
  const bare = host.startsWith('[') ? host.slice(1, -1) : host;
  return bare === '' ? { port } : { host: bare, port };
}
