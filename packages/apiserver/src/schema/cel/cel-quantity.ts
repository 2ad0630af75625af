/**
 * Kubernetes resource quantities in CEL, as kube-apiserver's quantity library declares them
 * (k8s.io/apiserver/pkg/cel/library/quantity.go): `quantity(s)`, `isQuantity(s)`, and on a
 * quantity `sign()`, `isInteger()`, `asInteger()`, `asApproximateFloat()`, `compareTo(q)`,
 * `isGreaterThan(q)`, `isLessThan(q)`, `add(q|int)`, `sub(q|int)`, plus `==`. Values are exact:
 * a decimal mantissa times a power of ten, with binary suffixes multiplied out.
 */

import type { Environment } from '@marcbachmann/cel-js';

const pattern = /^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$/;

const decimalSuffixes: Record<string, number> = {
  n: -9,
  u: -6,
  m: -3,
  '': 0,
  k: 3,
  M: 6,
  G: 9,
  T: 12,
  P: 15,
  E: 18,
};

const binarySuffixes: Record<string, bigint> = {
  Ki: 1n,
  Mi: 2n,
  Gi: 3n,
  Ti: 4n,
  Pi: 5n,
  Ei: 6n,
};

const maxInt64 = 2n ** 63n - 1n;
const minInt64 = -(2n ** 63n);

/** An exact quantity: `units / 10^scale`. */
export class CelQuantity {
  private constructor(
    readonly units: bigint,
    readonly scale: number,
  ) {}

  /** Parses a quantity as Kubernetes writes them (`500m`, `1Gi`, `1e3`); throws when invalid. */
  static parse(text: string): CelQuantity {
    const match = pattern.exec(text);
    const number = match?.[1] ?? '';
    const suffix = match?.[2] ?? '';
    if (!match || !/^[+-]?(\d+\.?\d*|\.\d+)$/.test(number)) {
      throw new Error(
        "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
      );
    }
    const [whole = '', fraction = ''] = number.replace(/^[+-]/, '').split('.');
    const negative = number.startsWith('-');
    let units = BigInt(`${whole}${fraction}` || '0') * (negative ? -1n : 1n);
    let scale = fraction.length;
    if (suffix in binarySuffixes) {
      units *= 1024n ** (binarySuffixes[suffix] ?? 0n);
    } else if (suffix in decimalSuffixes) {
      scale -= decimalSuffixes[suffix] ?? 0;
    } else if (/^[eE][-+]?\d+$/.test(suffix)) {
      scale -= Number(suffix.slice(1));
    } else {
      throw new Error("unable to parse quantity's suffix");
    }
    if (scale < 0) {
      units *= 10n ** BigInt(-scale);
      scale = 0;
    }
    return new CelQuantity(units, scale);
  }

  private static aligned(a: CelQuantity, b: CelQuantity): [bigint, bigint, number] {
    const scale = Math.max(a.scale, b.scale);
    return [
      a.units * 10n ** BigInt(scale - a.scale),
      b.units * 10n ** BigInt(scale - b.scale),
      scale,
    ];
  }

  compareTo(other: CelQuantity): bigint {
    const [a, b] = CelQuantity.aligned(this, other);
    return a < b ? -1n : a > b ? 1n : 0n;
  }

  plus(other: CelQuantity, sign: bigint): CelQuantity {
    const [a, b, scale] = CelQuantity.aligned(this, other);
    return new CelQuantity(a + sign * b, scale);
  }

  sign(): bigint {
    return this.units < 0n ? -1n : this.units > 0n ? 1n : 0n;
  }

  isInteger(): boolean {
    return this.units % 10n ** BigInt(this.scale) === 0n;
  }

  asInteger(): bigint {
    const value = this.units / 10n ** BigInt(this.scale);
    if (!this.isInteger() || value > maxInt64 || value < minInt64) {
      throw new Error('cannot convert value to integer');
    }
    return value;
  }

  asApproximateFloat(): number {
    return Number(this.units) / 10 ** this.scale;
  }

  static ofInteger(value: bigint): CelQuantity {
    return new CelQuantity(value, 0);
  }
}

function isQuantity(text: string): boolean {
  try {
    CelQuantity.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Registers the quantity type and functions on `env` (before it is cloned). */
export function registerQuantityLibrary(env: Environment): Environment {
  return env
    .registerType('Quantity', CelQuantity)
    .registerOperator(
      'Quantity == Quantity',
      (a: CelQuantity, b: CelQuantity) => a.compareTo(b) === 0n,
    )
    .registerFunction('quantity(string): Quantity', (text: string) => CelQuantity.parse(text))
    .registerFunction('isQuantity(string): bool', (text: string) => isQuantity(text))
    .registerFunction('Quantity.sign(): int', (q: CelQuantity) => q.sign())
    .registerFunction('Quantity.isInteger(): bool', (q: CelQuantity) => q.isInteger())
    .registerFunction('Quantity.asInteger(): int', (q: CelQuantity) => q.asInteger())
    .registerFunction('Quantity.asApproximateFloat(): double', (q: CelQuantity) =>
      q.asApproximateFloat(),
    )
    .registerFunction('Quantity.compareTo(Quantity): int', (a: CelQuantity, b: CelQuantity) =>
      a.compareTo(b),
    )
    .registerFunction(
      'Quantity.isGreaterThan(Quantity): bool',
      (a: CelQuantity, b: CelQuantity) => a.compareTo(b) > 0n,
    )
    .registerFunction(
      'Quantity.isLessThan(Quantity): bool',
      (a: CelQuantity, b: CelQuantity) => a.compareTo(b) < 0n,
    )
    .registerFunction('Quantity.add(Quantity): Quantity', (a: CelQuantity, b: CelQuantity) =>
      a.plus(b, 1n),
    )
    .registerFunction('Quantity.add(int): Quantity', (a: CelQuantity, b: bigint) =>
      a.plus(CelQuantity.ofInteger(b), 1n),
    )
    .registerFunction('Quantity.sub(Quantity): Quantity', (a: CelQuantity, b: CelQuantity) =>
      a.plus(b, -1n),
    )
    .registerFunction('Quantity.sub(int): Quantity', (a: CelQuantity, b: bigint) =>
      a.plus(CelQuantity.ofInteger(b), -1n),
    );
}
