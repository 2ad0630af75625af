import type { KubernetesObject } from '@ops/api';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { InformerObjects } from './informer-objects.js';
import { StringInterner } from './string-interner.js';
import { stripManagedFields } from './strip-managed-fields.js';

function objects(interner: StringInterner | undefined): InformerObjects {
  return new InformerObjects({
    kind: 'ConfigMap',
    apiVersion: 'v1',
    transform: stripManagedFields,
    interner,
    log: pino({ level: 'silent' }),
    isStopped: () => false,
  });
}

/** A list item as kube-apiserver sends it: no kind or apiVersion, managedFields last. */
function listItem(index: number): KubernetesObject {
  return JSON.parse(
    JSON.stringify({
      metadata: {
        name: `storefront-config-${index}`,
        namespace: 'storefront-production',
        labels: { 'app.kubernetes.io/instance': `storefront-${index % 2}` },
        annotations: { 'checksum/config': `checksum-unique-to-${index}` },
        managedFields: [{ manager: 'helm', operation: 'Update' }],
      },
      data: { REGION: 'eu-west-1' },
    }),
  ) as KubernetesObject;
}

describe('InformerObjects', () => {
  it('prepares list items: kind and apiVersion restored, managedFields dropped', () => {
    const prepared: KubernetesObject[] = [];
    objects(undefined).prepareInto(listItem(1), prepared);
    expect(prepared).toHaveLength(1);
    expect(prepared[0]).toMatchObject({ kind: 'ConfigMap', apiVersion: 'v1' });
    expect(prepared[0]?.metadata).not.toHaveProperty('managedFields');
  });

  it('skips (and logs) an item without metadata.name', () => {
    const prepared: KubernetesObject[] = [];
    objects(undefined).prepareInto({ metadata: {} }, prepared);
    expect(prepared).toEqual([]);
  });

  it('compacts a list, keeping only the strings two objects share in the interner', async () => {
    const interner = new StringInterner();
    const listed: KubernetesObject[] = [];
    const informerObjects = objects(interner);
    for (let i = 0; i < 1200; i++) informerObjects.prepareInto(listItem(i), listed);
    const expected = structuredClone(listed);
    informerObjects.compact(listed);
    await informerObjects.idle();
    expect(listed).toEqual(expected);
    // Shared: the namespace, kind, apiVersion, the two label values and the region.
    // The checksums, each in one object, were candidates and are forgotten.
    expect(interner.counts()).toEqual({ shared: 6, candidates: 0 });
  });
});
