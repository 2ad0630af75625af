import { strict as assert } from 'node:assert';
import { type Condition, parseLabelSelector, setStatusCondition } from '@ops/api';

const conditions: Condition[] = [];
const changed = setStatusCondition(conditions, {
  type: 'Ready',
  status: 'True',
  reason: 'Available',
  message: 'all replicas are up',
});
assert.equal(changed, true);
assert.equal(conditions[0]?.status, 'True');

const selector = parseLabelSelector('app=web,tier in (frontend)');
assert.equal(selector.matches({ app: 'web', tier: 'frontend' }), true);
assert.equal(selector.matches({ app: 'web' }), false);
