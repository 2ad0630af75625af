import assert from 'node:assert/strict';
import { defineCustomResource } from '@ops/core';
import { type Conversion, conversionData, defineConversion } from '@ops/core/crd';
import { WebhookServer } from '@ops/core/webhook';
import { Type } from '@sinclair/typebox';

// v1beta1 stored `spec.replicas`; v1 moved it to `spec.scale.replicas` and added
// `spec.scale.max`. v1 is the storage version, so it is the hub.
const dial = defineCustomResource({
  group: 'example.com',
  kind: 'Dial',
  plural: 'dials',
  scope: 'Namespaced',
  conversion: 'Webhook',
  versions: [
    { name: 'v1beta1', spec: Type.Object({ replicas: Type.Integer() }) },
    {
      name: 'v1',
      storage: true,
      spec: Type.Object({
        scale: Type.Object({ replicas: Type.Integer(), max: Type.Optional(Type.Integer()) }),
      }),
    },
  ],
});

// One pair of functions per spoke, typed by the two schemas; what v1beta1 cannot hold
// (`scale.max`) travels in the `example.com/conversion-data` annotation.
const kept = conversionData(dial);
const v1beta1: Conversion<typeof dial, 'v1beta1'> = {
  toHub(spoke) {
    const { metadata, kept: saved } = kept.restore(spoke);
    const max = saved?.spec?.scale?.max;
    const scale = { replicas: spoke.spec.replicas, ...(max === undefined ? {} : { max }) };
    return { apiVersion: 'example.com/v1', kind: 'Dial', metadata, spec: { scale } };
  },
  fromHub(hub) {
    const spoke = {
      apiVersion: 'example.com/v1beta1' as const,
      kind: 'Dial' as const,
      metadata: hub.metadata,
      spec: { replicas: hub.spec.scale.replicas },
    };
    return kept.save(spoke, { spec: { scale: { max: hub.spec.scale.max } } });
  },
};
const dialConversion = defineConversion(dial, { v1beta1 });

const stored = {
  apiVersion: 'example.com/v1',
  kind: 'Dial',
  metadata: { name: 'a', namespace: 'default' },
  spec: { scale: { replicas: 2, max: 5 } },
};
const old = dialConversion.convert(stored, 'example.com/v1beta1');
assert.deepEqual(old.metadata?.annotations, {
  'example.com/conversion-data': '{"spec":{"scale":{"max":5}}}',
});
assert.deepEqual(dialConversion.convert(old, 'example.com/v1'), stored); // lossless

// The CRD sends every read and write in v1beta1 to the webhook server's /convert...
assert.equal(dial.crd().spec.conversion?.webhook?.clientConfig?.service?.path, '/convert');
// ...which serves the conversion once registered (runOperator does it for `conversions`).
const server = new WebhookServer().register(dialConversion);
assert.deepEqual(server.paths, ['/convert']);
