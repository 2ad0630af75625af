import assert from 'node:assert/strict';
import { isControlledBy, setControllerReference } from '@ops/core';
import { labelSelectorFromObject, parseLabelSelector } from '@ops/core/meta';

// Label selectors, in the string form kubectl takes...
const selector = parseLabelSelector('app=web,tier in (front,edge),!legacy');
assert.equal(selector.matches({ app: 'web', tier: 'edge' }), true);
assert.equal(selector.matches({ app: 'web', tier: 'edge', legacy: 'yes' }), false);

// ...and in the structured form found in specs. An empty selector selects everything; an
// absent one selects nothing, as in Kubernetes.
const structured = labelSelectorFromObject({
  matchLabels: { app: 'web' },
  matchExpressions: [{ key: 'env', operator: 'NotIn', values: ['prod'] }],
});
assert.equal(structured.toString(), 'app=web,env notin (prod)');
assert.equal(labelSelectorFromObject(undefined).matches({ app: 'web' }), false);

// Owner references: the Deployment is garbage-collected with its Application.
const application = {
  apiVersion: 'core.crd.lixueduan.com/v1',
  kind: 'Application',
  metadata: { name: 'demo', namespace: 'default', uid: '6f1c0d52-0d3b-4f0e-9a53-2a7c1b0e8f11' },
};
const deployment = setControllerReference(application, {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'app-demo', namespace: 'default' },
});
assert.equal(isControlledBy(deployment, application), true);
assert.equal(deployment.metadata.ownerReferences?.[0]?.blockOwnerDeletion, true);
