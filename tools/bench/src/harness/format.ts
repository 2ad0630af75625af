/** Number formatting for tables and notes. */

/** `1234.5` → `1,234.5` with `digits` decimals (default: 2 below 10, 1 below 100, else 0). */
export function formatNumber(value: number, digits?: number): string {
  if (!Number.isFinite(value)) return String(value);
  const d = digits ?? (Math.abs(value) < 10 ? 2 : Math.abs(value) < 100 ? 1 : 0);
  return value.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });
}

/** A ratio as `1.23×`. */
export function formatRatio(value: number): string {
  return `${formatNumber(value, 2)}×`;
}
