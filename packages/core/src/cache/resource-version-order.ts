import type { InformerTransport } from './informer.js';

/**
 * How resourceVersions of a server may be compared:
 * - `comparable`: they are decimal integers that grow with every write, so the larger one is
 *   the newer state (KEP-5504, guaranteed by kube-apiserver from 1.35);
 * - `exact`: they are opaque strings that can only be tested for equality (the contract of
 *   every earlier server, and of aggregated API servers).
 */
export type ResourceVersionOrder = 'comparable' | 'exact';

/** The first Kubernetes minor release (of major 1) whose resourceVersions are comparable. */
export const firstComparableMinor = 35;

const integer = /^(0|[1-9][0-9]*)$/;

/**
 * Compares two resourceVersions as integers: negative when `a` is older, 0 when equal,
 * positive when newer; undefined when either is not a decimal integer (then only equality
 * means anything). Only meaningful where the server's order is `comparable`.
 */
export function compareResourceVersions(a: string, b: string): number | undefined {
  if (!integer.test(a) || !integer.test(b)) return undefined;
  if (a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The order of a server's resourceVersions from its `/version` document: `comparable` for
 * Kubernetes 1.35 and later (`major` 1, `minor` ≥ 35, a trailing `+` ignored, as managed
 * clusters report it), `exact` for anything else, or a document without those fields.
 */
export function resourceVersionOrderOf(version: unknown): ResourceVersionOrder {
  if (typeof version !== 'object' || version === null) return 'exact';
  const { major, minor } = version as { major?: unknown; minor?: unknown };
  if (typeof major !== 'string' || typeof minor !== 'string') return 'exact';
  const majorNumber = Number.parseInt(major, 10);
  const minorNumber = Number.parseInt(minor, 10);
  if (majorNumber > 1) return 'comparable';
  return majorNumber === 1 && minorNumber >= firstComparableMinor ? 'comparable' : 'exact';
}

/**
 * Asks the server its version (`GET /version`) and answers the order of its resourceVersions
 * (see {@link resourceVersionOrderOf}). Any failure (no answer, not JSON, a 403) answers
 * `exact`, the order every server honours.
 */
export async function detectResourceVersionOrder(
  transport: Pick<InformerTransport, 'request'>,
): Promise<ResourceVersionOrder> {
  try {
    const answer = await transport.request({ method: 'GET', path: '/version', timeoutMs: 10_000 });
    if (answer.status !== 200) return 'exact';
    return resourceVersionOrderOf(JSON.parse(answer.text));
  } catch {
    return 'exact';
  }
}
