import { describe, expect, it } from 'vitest';
import { OperatorFlagError } from '../errors/operator-flag-error.js';
import { parseBindAddress } from './bind-address.js';

describe('parseBindAddress', () => {
  it('takes :port, host:port, [ipv6]:port and 0', () => {
    expect(parseBindAddress(':8080', '--metrics-bind-address')).toEqual({ port: 8080 });
    expect(parseBindAddress('127.0.0.1:0', '--x')).toEqual({ host: '127.0.0.1', port: 0 });
    expect(parseBindAddress('localhost:9', '--x')).toEqual({ host: 'localhost', port: 9 });
    expect(parseBindAddress('[::1]:8081', '--x')).toEqual({ host: '::1', port: 8081 });
    expect(parseBindAddress('0', '--x')).toBe(false);
  });

  it.each(['8080', ':', ':http', ':65536', 'bad host:80', ''])(
    'refuses %j, naming the flag',
    (value) => {
      let caught: unknown;
      try {
        parseBindAddress(value, '--metrics-bind-address');
      } catch (error) {
        caught = error;
      }
      expect(OperatorFlagError.isInstance(caught)).toBe(true);
      expect((caught as Error).message).toBe(
        `--metrics-bind-address must be host:port, :port or 0 (disabled), with a port from 0 to 65535, got ${JSON.stringify(value)}`,
      );
    },
  );
});
