/**
 * Parses `--sizes` (or another `flag` of the same form): comma-separated whole numbers >= 1,
 * returned ascending without repeats.
 *
 * @throws {Error} naming the flag and the part that is not such a number.
 */
export function parseSizes(text: string, flag = '--sizes'): number[] {
  const parts = text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  if (parts.length === 0) throw new Error(`${flag} needs at least one number, e.g. 10000,50000`);
  const sizes = parts.map((part) => {
    const value = Number(part.replace(/_/g, ''));
    if (!Number.isInteger(value) || value < 1)
      throw new Error(`${flag} takes whole numbers >= 1 separated by commas; "${part}" is not one`);
    return value;
  });
  return [...new Set(sizes)].sort((a, b) => a - b);
}
