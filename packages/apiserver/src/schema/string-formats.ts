/**
 * The string formats kube-apiserver checks in custom resources. A CRD may name any format, but
 * kube-apiserver strips the ones outside this list before validating (apiextensions'
 * `StripUnsupportedFormatsPostProcess`), so an unknown format is never an error. Format names
 * are compared with their dashes removed (`date-time` is `datetime`), as go-openapi does.
 *
 * The checks follow go-openapi `strfmt` (itself built on Go's `net`, `net/mail`, `net/url`,
 * `time` and `encoding/base64`); where a Go parser is too intricate to mirror exactly
 * (`uri`, `email`, `hostname`, `duration`) the check is a close approximation that accepts
 * the usual spellings and rejects the obviously malformed.
 */

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const uuid3Pattern = /^[0-9a-f]{8}-[0-9a-f]{4}-3[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const uuid4Pattern = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
const uuid5Pattern = /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
const hexColorPattern = /^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
const rgbPart = '\\s*(0|[1-9]\\d?|1\\d\\d?|2[0-4]\\d|25[0-5])\\s*';
const rgbColorPattern = new RegExp(`^rgb\\(${rgbPart},${rgbPart},${rgbPart}\\)$`);
const ssnPattern = /^\d{3}[- ]?\d{2}[- ]?\d{4}$/;
const creditCardPattern =
  /^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\d{3})\d{11})$/;
const base64Pattern = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const bsonObjectIdPattern = /^[0-9a-fA-F]{24}$/;
const datePattern = /^(\d{4})-(\d{2})-(\d{2})$/;
const dateTimePattern =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;
const goDurationPattern = /^[-+]?(?:(?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|μs|ms|s|m|h))+$/;
const durationUnits =
  'ns|us|µs|μs|ms|s|m|h|d|w|nanoseconds?|microseconds?|milliseconds?|seconds?|minutes?|hours?|days?|weeks?|sec|secs|min|mins|hr|hrs';
const wordDurationPattern = new RegExp(`^(?:-?\\s?\\d+\\s*(?:${durationUnits})\\s*)+$`);
const hostnameLabel = /^[\p{L}\p{N}\p{S}]([\p{L}\p{N}\p{S}-]{0,61}[\p{L}\p{N}\p{S}])?$/u;
const macPatterns = [
  /^[0-9a-fA-F]{2}(?::[0-9a-fA-F]{2}){5}$/,
  /^[0-9a-fA-F]{2}(?::[0-9a-fA-F]{2}){7}$/,
  /^[0-9a-fA-F]{2}(?::[0-9a-fA-F]{2}){19}$/,
  /^[0-9a-fA-F]{2}(?:-[0-9a-fA-F]{2}){5}$/,
  /^[0-9a-fA-F]{2}(?:-[0-9a-fA-F]{2}){7}$/,
  /^[0-9a-fA-F]{2}(?:-[0-9a-fA-F]{2}){19}$/,
  /^[0-9a-fA-F]{4}(?:\.[0-9a-fA-F]{4}){2}$/,
  /^[0-9a-fA-F]{4}(?:\.[0-9a-fA-F]{4}){3}$/,
  /^[0-9a-fA-F]{4}(?:\.[0-9a-fA-F]{4}){9}$/,
];

function validCalendarDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
  return day <= days;
}

function isDate(value: string): boolean {
  const match = datePattern.exec(value);
  if (!match) return false;
  return validCalendarDate(Number(match[1]), Number(match[2]), Number(match[3]));
}

function isDateTime(value: string): boolean {
  const match = dateTimePattern.exec(value);
  if (!match) return false;
  if (!validCalendarDate(Number(match[1]), Number(match[2]), Number(match[3]))) return false;
  const hour = Number(match[4]);
  const minute = Number(match[5]);
  const second = match[6] === undefined ? 0 : Number(match[6]);
  return hour <= 23 && minute <= 59 && second <= 59;
}

/** A dotted-quad IPv4 address as Go's `net.ParseIP` reads it (no leading zeros). */
export function isIPv4(value: string): boolean {
  const parts = value.split('.');
  if (parts.length !== 4) return false;
  return parts.every((part) => /^(0|[1-9]\d{0,2})$/.test(part) && Number(part) <= 255);
}

/** An IPv6 address as Go's `net.ParseIP` reads it (`::` compression, trailing dotted IPv4). */
export function isIPv6(value: string): boolean {
  if (!value.includes(':')) return false;
  let text = value;
  let groupsFromIPv4 = 0;
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  if (tail.includes('.')) {
    if (!isIPv4(tail)) return false;
    text = `${text.slice(0, lastColon + 1)}0`;
    groupsFromIPv4 = 1;
  }
  const halves = text.split('::');
  if (halves.length > 2) return false;
  const group = /^[0-9a-fA-F]{1,4}$/;
  const parse = (half: string): string[] | undefined => {
    if (half === '') return [];
    const groups = half.split(':');
    return groups.every((g) => group.test(g)) ? groups : undefined;
  };
  const head = parse(halves[0] ?? '');
  const rest = halves.length === 2 ? parse(halves[1] ?? '') : [];
  if (!head || !rest) return false;
  const count = head.length + rest.length + groupsFromIPv4;
  return halves.length === 2 ? count <= 7 : count === 8;
}

function isCidr(value: string): boolean {
  const slash = value.indexOf('/');
  if (slash === -1) return false;
  const address = value.slice(0, slash);
  const prefix = value.slice(slash + 1);
  if (!/^(0|[1-9]\d{0,2})$/.test(prefix)) return false;
  const bits = Number(prefix);
  if (isIPv4(address)) return bits <= 32;
  if (isIPv6(address)) return bits <= 128;
  return false;
}

function isHostname(value: string): boolean {
  if (value.length === 0 || value.length > 255) return false;
  const labels = value.endsWith('.') ? value.slice(0, -1).split('.') : value.split('.');
  return labels.every((label) => hostnameLabel.test(label));
}

function isEmail(value: string): boolean {
  const address = /<([^<>]*)>\s*$/.exec(value)?.[1] ?? value;
  const at = address.lastIndexOf('@');
  if (at <= 0 || at === address.length - 1) return false;
  return !/[\s<>]/.test(address);
}

function isUri(value: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: Go's url.Parse rejects control characters.
  if (/[\u0000-\u001f\u007f]/.test(value)) return false;
  return !/%(?![0-9a-fA-F]{2})/.test(value);
}

function luhnIsbn10(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < 10; i++) {
    const char = digits[i] ?? '';
    const digit = char === 'X' || char === 'x' ? 10 : Number(char);
    sum += digit * (10 - i);
  }
  return sum % 11 === 0;
}

function isIsbn10(value: string): boolean {
  const digits = value.replace(/[\s-]/g, '');
  return /^\d{9}[\dXx]$/.test(digits) && luhnIsbn10(digits);
}

function isIsbn13(value: string): boolean {
  const digits = value.replace(/[\s-]/g, '');
  if (!/^\d{13}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < 13; i++) sum += Number(digits[i]) * (i % 2 === 0 ? 1 : 3);
  return sum % 10 === 0;
}

const checkers: Record<string, (value: string) => boolean> = {
  bsonobjectid: (value) => bsonObjectIdPattern.test(value),
  uri: isUri,
  email: isEmail,
  hostname: isHostname,
  ipv4: isIPv4,
  ipv6: isIPv6,
  cidr: isCidr,
  mac: (value) => macPatterns.some((pattern) => pattern.test(value)),
  uuid: (value) => uuidPattern.test(value),
  uuid3: (value) => uuid3Pattern.test(value),
  uuid4: (value) => uuid4Pattern.test(value),
  uuid5: (value) => uuid5Pattern.test(value),
  isbn: (value) => isIsbn10(value) || isIsbn13(value),
  isbn10: isIsbn10,
  isbn13: isIsbn13,
  creditcard: (value) => creditCardPattern.test(value.replace(/\D/g, '')),
  ssn: (value) => ssnPattern.test(value),
  hexcolor: (value) => hexColorPattern.test(value),
  rgbcolor: (value) => rgbColorPattern.test(value),
  byte: (value) => base64Pattern.test(value.replace(/[\r\n]/g, '')),
  password: () => true,
  date: isDate,
  duration: (value) =>
    value === '0' || goDurationPattern.test(value) || wordDurationPattern.test(value),
  datetime: isDateTime,
};

/** The format kube-apiserver validates for `format`, or `''` when it strips (ignores) it. */
export function supportedFormat(format: unknown): string {
  if (typeof format !== 'string' || format === '') return '';
  return Object.hasOwn(checkers, format.replaceAll('-', '')) ? format : '';
}

/** Whether `value` is valid for the (supported) `format`; true for formats that are not checked. */
export function matchesFormat(format: string, value: string): boolean {
  const checker = checkers[format.replaceAll('-', '')];
  return checker ? checker(value) : true;
}
