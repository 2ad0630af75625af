import { describe, expect, it } from 'vitest';
import { compileGoPattern } from './go-pattern.js';
import { isIPv4, isIPv6, matchesFormat, supportedFormat } from './string-formats.js';

describe('supportedFormat', () => {
  it('keeps the formats kube-apiserver validates and strips the others', () => {
    expect(supportedFormat('date-time')).toBe('date-time');
    expect(supportedFormat('uuid')).toBe('uuid');
    expect(supportedFormat('int32')).toBe('');
    expect(supportedFormat('k8s-whatever')).toBe('');
    expect(supportedFormat(undefined)).toBe('');
    expect(supportedFormat(5)).toBe('');
  });
});

describe('matchesFormat', () => {
  it.each([
    ['date-time', '2024-02-29T23:59:59Z', true],
    ['date-time', '2024-02-29T23:59:59.123+02:00', true],
    ['date-time', '2023-02-29T00:00:00Z', false],
    ['date-time', '2024-01-01', false],
    ['date', '2024-01-31', true],
    ['date', '2024-04-31', false],
    ['uuid', '123e4567-e89b-12d3-a456-426614174000', true],
    ['uuid', '123e4567e89b12d3a456426614174000', false],
    ['uuid4', '123e4567-e89b-42d3-a456-426614174000', true],
    ['uuid4', '123e4567-e89b-12d3-a456-426614174000', false],
    ['ipv4', '10.0.0.1', true],
    ['ipv4', '10.0.0.256', false],
    ['ipv4', '010.0.0.1', false],
    ['ipv6', '::1', true],
    ['ipv6', 'fe80::1:2:3:4', true],
    ['ipv6', '::ffff:10.0.0.1', true],
    ['ipv6', '1::2::3', false],
    ['cidr', '10.0.0.0/8', true],
    ['cidr', '10.0.0.0/33', false],
    ['cidr', 'fd00::/64', true],
    ['mac', '00:1a:2b:3c:4d:5e', true],
    ['mac', '00:1a:2b', false],
    ['hostname', 'api.example.com', true],
    ['hostname', '-bad-.example.com', false],
    ['email', 'ops@example.com', true],
    ['email', 'not-an-email', false],
    ['byte', 'aGVsbG8=', true],
    ['byte', 'not base64!', false],
    ['duration', '1h30m', true],
    ['duration', '3 days', true],
    ['duration', 'soon', false],
    ['hexcolor', '#ff00AA', true],
    ['hexcolor', '#ff00A', false],
    ['rgbcolor', 'rgb(255, 0, 10)', true],
    ['rgbcolor', 'rgb(256,0,0)', false],
    ['uri', 'https://example.com/a?b=c', true],
    ['uri', 'https://example.com/%zz', false],
    ['bsonobjectid', '507f1f77bcf86cd799439011', true],
    ['isbn', '978-3-16-148410-0', true],
    ['isbn10', '0-306-40615-2', true],
    ['isbn10', '0-306-40615-3', false],
    ['ssn', '123-45-6789', true],
    ['creditcard', '4111 1111 1111 1111', true],
    ['password', 'anything at all', true],
    ['unknown-format', 'anything', true],
  ])('%s %j -> %s', (format, value, expected) => {
    expect(matchesFormat(format, value)).toBe(expected);
  });

  it('reads IP addresses as Go does', () => {
    expect(isIPv4('1.2.3')).toBe(false);
    expect(isIPv6('1:2:3:4:5:6:7:8')).toBe(true);
    expect(isIPv6('1:2:3:4:5:6:7:8:9')).toBe(false);
    expect(isIPv6('10.0.0.1')).toBe(false);
  });
});

describe('compileGoPattern', () => {
  it('translates RE2 spellings and caches the result', () => {
    const insensitive = compileGoPattern('(?i)^abc\\z');
    expect(insensitive.ok && insensitive.regexp.test('ABC')).toBe(true);
    expect(insensitive.ok && insensitive.regexp.test('ABC\n')).toBe(false);
    const posix = compileGoPattern('\\A[[:alpha:]][[:^digit:]]');
    expect(posix.ok && posix.regexp.test('a-')).toBe(true);
    expect(posix.ok && posix.regexp.test('a1')).toBe(false);
    expect(compileGoPattern('(?i)^abc\\z')).toBe(insensitive);
  });

  it('reports patterns that do not compile without throwing', () => {
    const broken = compileGoPattern('[a-');
    expect(broken.ok).toBe(false);
    if (!broken.ok) expect(broken.error).toMatch(/Invalid regular expression/);
  });
});
