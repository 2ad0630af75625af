/**
 * Removes the field at the dotted `path` (`status.childName`) from `object`, in place. A list
 * met on the way is gone through item by item: `status.conditions.lastTransitionTime` removes
 * `lastTransitionTime` from every condition; a whole number picks one item instead
 * (`status.conditions.0.lastTransitionTime`). Nothing happens where the path leads nowhere.
 */
export function removePath(object: unknown, path: string): void {
  removeParts(object, path.split('.'));
}

function removeParts(current: unknown, parts: readonly string[]): void {
  if (Array.isArray(current)) {
    const [first = '', ...rest] = parts;
    if (/^\d+$/.test(first)) {
      if (rest.length === 0) current.splice(Number(first), 1);
      else removeParts(current[Number(first)], rest);
    } else for (const item of current) removeParts(item, parts);
    return;
  }
  if (typeof current !== 'object' || current === null) return;
  const [first = '', ...rest] = parts;
  const fields = current as Record<string, unknown>;
  if (rest.length === 0) delete fields[first];
  else removeParts(fields[first], rest);
}
