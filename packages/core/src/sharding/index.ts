// @ops/core/sharding: the pieces of a sharded controller (`withOptions({ sharding })`) an
// operator or its tests name: the ring's consistent hashing, its labels and Lease names, and
// its metrics' names.
export { defaultVirtualNodes, HashRing } from './hash-ring.js';
export {
  acknowledgedAnnotation,
  assignmentLeaseName,
  type RingAssignment,
  readAssignment,
} from './ring-assignment.js';
export { type ShardState, shardingKey } from './ring-membership.js';
export {
  drainLabel,
  ringLabel,
  sharderLeaseName,
  shardLabel,
  shardLeaseName,
  shardNameLabel,
} from './shard-labels.js';
export { fnv1a64, type HashRange, type ShardField, ShardRanges } from './shard-ranges.js';
export {
  ringMembersMetricName,
  shardDrainsMetricName,
  shardObjectsMetricName,
  shardReassignmentsMetricName,
} from './sharding-metrics.js';
