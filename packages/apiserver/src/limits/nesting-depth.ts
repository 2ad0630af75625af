/**
 * The deepest nesting of objects and arrays a request body or stored object may have: 1,000
 * levels (the outermost object is level 1).
 *
 * kube-apiserver's JSON decoder (sigs.k8s.io/json, after Go's encoding/json) stops at 10,000
 * levels. This server is lower because it must serve whatever it stores: Node.js cannot
 * structurally clone a value much deeper than ~1,600 levels (nor stringify one beyond ~4,000),
 * and every write, watch event and patch clones or stringifies. Real Kubernetes objects nest a
 * few dozen levels.
 */
export const maxNestingDepth = 1000;

/**
 * How deep `value` nests, walking it without recursion (so any depth is measured safely), or
 * stopping early at the first level beyond `limit`: the result is then `limit + 1`.
 */
export function nestingDepth(value: unknown, limit = Number.POSITIVE_INFINITY): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop() as [unknown, number];
    if (typeof current !== 'object' || current === null) continue;
    if (depth > deepest) deepest = depth;
    if (deepest > limit) return deepest;
    const children = Array.isArray(current) ? current : Object.values(current);
    for (const child of children)
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
  }
  return deepest;
}

/**
 * The 400 text for a value nesting deeper than {@link maxNestingDepth}: kube's "exceeded max
 * depth" (Go's encoding/json wording) with the limit and the fix.
 */
export function nestingDepthMessage(what: string, limit = maxNestingDepth): string {
  return `${what} exceeded max depth: objects and arrays may nest at most ${limit} levels deep; flatten it`;
}
