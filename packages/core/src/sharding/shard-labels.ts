/** Prefix of every label and annotation key of the sharding mechanism. */
export const shardingDomain = 'sharding.ops.dev';

/** Label on every shard Lease naming its ring: `kubectl get leases -l sharding.ops.dev/ring=<ring>`. */
export const ringLabel = `${shardingDomain}/ring`;

/** Label on every shard Lease naming the shard (the replica's identity). */
export const shardNameLabel = `${shardingDomain}/shard`;

/**
 * The label that assigns an object to a replica of `ring`:
 * `shard.sharding.ops.dev/<ring>: <replica identity>`. Each replica's informers select
 * their own value, so each caches only its share.
 */
export function shardLabel(ring: string): string {
  return `shard.${shardingDomain}/${ring}`;
}

/**
 * The label the sharder sets on an object to take it from its replica: the replica
 * acknowledges by removing it together with {@link shardLabel} once it has stopped
 * reconciling the object; only then is the object assigned to another replica.
 */
export function drainLabel(ring: string): string {
  return `drain.${shardingDomain}/${ring}`;
}

/** Name of the Lease a replica holds in `ring`. */
export function shardLeaseName(ring: string, identity: string): string {
  return `${ring}-${identity}`;
}

/** Name of the Lease whose holder is the ring's sharder. */
export function sharderLeaseName(ring: string): string {
  return `${ring}-sharder`;
}

const dnsLabel = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const labelValue = /^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;

/**
 * Checks a ring name: a DNS label of at most 50 characters (it is the name part of the
 * shard and drain label keys, and prefixes Lease names).
 *
 * @throws {Error} naming what is wrong and how to fix it.
 */
export function checkRingName(ring: string): void {
  if (ring.length > 50 || !dnsLabel.test(ring))
    throw new Error(
      `sharding ring name "${ring}" is not valid: use at most 50 lower-case letters, digits and '-', starting and ending with a letter or digit (it names the ring's labels and Leases), e.g. "application"`,
    );
}

/**
 * Checks a replica identity: a label value that also fits a Lease name (lower-case letters,
 * digits, '-' and '.', at most 63 characters).
 *
 * @throws {Error} naming what is wrong and how to fix it.
 */
export function checkShardIdentity(identity: string): void {
  if (
    identity.length > 63 ||
    !labelValue.test(identity) ||
    identity !== identity.toLowerCase() ||
    identity.includes('_')
  )
    throw new Error(
      `shard identity "${identity}" is not valid: a sharded replica's identity is a label value and part of a Lease name, so use at most 63 lower-case letters, digits, '-' and '.', starting and ending with a letter or digit (the pod name, for example)`,
    );
}

/**
 * A valid shard identity made from a host name: lower-cased, other characters replaced by
 * '-', cut so that `-<suffix>` fits in 63 characters.
 */
export function shardIdentityFrom(host: string, suffix: string): string {
  const base = host
    .toLowerCase()
    .replace(/[^a-z0-9.-]/g, '-')
    .replace(/^[^a-z0-9]+/, '')
    .slice(0, 62 - suffix.length)
    .replace(/[^a-z0-9]+$/, '');
  return base ? `${base}-${suffix}` : suffix;
}
