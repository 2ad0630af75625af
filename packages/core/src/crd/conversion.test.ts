import type { KubernetesObject } from '@ops/api';
import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { ConversionError } from '../errors/conversion-error.js';
import { CustomResourceDefinitionError } from '../errors/custom-resource-definition-error.js';
import { defineConversion, describeObject, isConversionDeclaration } from './conversion.js';
import { defineCustomResource } from './custom-resource.js';
import {
  v1alpha1,
  type Widget,
  type WidgetV1alpha1,
  widget,
  widgetConversion,
} from './test-widget.js';

const hub = (fields: Partial<Widget> = {}): Widget => ({
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  metadata: { name: 'w', namespace: 'default', uid: 'u-1', resourceVersion: '7', generation: 2 },
  spec: { scale: { replicas: 3, max: 9 }, color: 'blue' },
  status: { ready: true, message: 'all 3 up' },
  ...fields,
});

const spoke = (fields: Partial<WidgetV1alpha1> = {}): WidgetV1alpha1 => ({
  apiVersion: 'example.com/v1alpha1',
  kind: 'Widget',
  metadata: { name: 'w', namespace: 'default', uid: 'u-1' },
  spec: { replicas: 4 },
  ...fields,
});

function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a throw');
}

describe('defineConversion', () => {
  it('declares the conversion served at /convert for the definition', () => {
    expect(isConversionDeclaration(widgetConversion)).toBe(true);
    expect(isConversionDeclaration({ path: '/convert' })).toBe(false);
    expect(widgetConversion.path).toBe('/convert');
    expect(widgetConversion.definition).toBe(widget);
  });

  it('refuses a definition without conversion: Webhook, naming the fix', () => {
    const plain = defineCustomResource({
      group: 'example.com',
      kind: 'Plain',
      plural: 'plains',
      scope: 'Cluster',
      versions: [
        { name: 'v1alpha1', spec: Type.Object({}) },
        { name: 'v1', storage: true, spec: Type.Object({}) },
      ],
    });
    const error = thrown(() =>
      defineConversion(plain, {
        v1alpha1: {
          toHub: (o) => ({ ...o, apiVersion: 'example.com/v1' }),
          fromHub: (o) => ({ ...o, apiVersion: 'example.com/v1alpha1' }),
        },
      }),
    );
    expect(CustomResourceDefinitionError.isInstance(error)).toBe(true);
    expect(error.message).toBe(
      `conversion of custom resource "Plain": the definition does not say conversion: 'Webhook', so its CRD would never call the conversion webhook; add it to defineCustomResource`,
    );
  });

  it('refuses a missing spoke, the hub, an unknown version and a spoke that is not two functions', () => {
    const cases: Array<[unknown, string]> = [
      [
        {},
        'version v1alpha1 has no conversion: give { toHub, fromHub } converting it to and from v1',
      ],
      [
        { v1alpha1, v1: v1alpha1 },
        'v1 is the storage version, the hub every spoke converts to: it needs no conversion; remove it',
      ],
      [{ v1alpha1, v2: v1alpha1 }, 'the definition has no version "v2" (it has v1alpha1, v1)'],
      [
        { v1alpha1: { toHub: v1alpha1.toHub } },
        'the conversion of v1alpha1 must be { toHub(spoke), fromHub(hub) }, two functions',
      ],
    ];
    for (const [spokes, message] of cases) {
      const error = thrown(() => defineConversion(widget, spokes as never));
      expect(error.message).toBe(`conversion of custom resource "Widget": ${message}`);
    }
    expect(
      thrown(() => defineConversion({ options: widget.options }, { v1alpha1 } as never)).message,
    ).toBe(
      'defineConversion: the first argument is not a definition made with defineCustomResource',
    );
  });
});

describe('ConversionDeclaration.convert', () => {
  it('converts hub to spoke and back without loss, keeping what the spoke cannot hold in the annotation', () => {
    const original = hub();
    const down = widgetConversion.convert(original, 'example.com/v1alpha1');
    expect(down).toEqual({
      apiVersion: 'example.com/v1alpha1',
      kind: 'Widget',
      metadata: {
        ...original.metadata,
        annotations: {
          'example.com/conversion-data':
            '{"spec":{"scale":{"max":9}},"status":{"message":"all 3 up"}}',
        },
      },
      spec: { replicas: 3, color: 'blue' },
      status: { ready: true },
    });
    expect(widgetConversion.convert(down, 'example.com/v1')).toEqual(original);
    // The input is never changed.
    expect(original).toEqual(hub());
  });

  it('converts a spoke written by a client (no annotation) with the hub defaults, and back to the same spoke', () => {
    const written = spoke({ spec: { replicas: 4, color: 'red' }, status: { ready: false } });
    const up = widgetConversion.convert(written, 'example.com/v1');
    expect(up).toEqual({
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: written.metadata,
      spec: { scale: { replicas: 4 }, color: 'red' },
      status: { ready: false },
    });
    expect(widgetConversion.convert(up, 'example.com/v1alpha1')).toEqual(written);
  });

  it('lets an edit made in the spoke win over the kept hub fields', () => {
    const down = widgetConversion.convert(hub(), 'example.com/v1alpha1') as WidgetV1alpha1;
    const edited = { ...down, spec: { ...down.spec, replicas: 5 } };
    expect((widgetConversion.convert(edited, 'example.com/v1') as Widget).spec).toEqual({
      scale: { replicas: 5, max: 9 },
      color: 'blue',
    });
  });

  it('returns a copy of an object already in the desired version', () => {
    const object = hub();
    const same = widgetConversion.convert(object, 'example.com/v1');
    expect(same).toEqual(object);
    expect(same).not.toBe(object);
  });

  it('fails naming the object and the reason when the spoke cannot hold the hub object', () => {
    const error = thrown(() =>
      widgetConversion.convert(hub({ spec: { scale: { replicas: 500 } } }), 'example.com/v1alpha1'),
    );
    expect(ConversionError.isInstance(error)).toBe(true);
    expect((error as ConversionError).object).toBe('Widget default/w');
    expect(error.message).toBe(
      'Widget default/w: converting example.com/v1 to example.com/v1alpha1 failed: spec.scale.replicas 500 does not fit v1alpha1 (at most 100): read it as example.com/v1',
    );
  });

  it('fails for a version, group or kind the definition lacks, and for an object without metadata', () => {
    const messages = [
      () => widgetConversion.convert(hub(), 'example.com/v2'),
      () =>
        widgetConversion.convert({ ...hub(), apiVersion: 'other.io/v1' }, 'example.com/v1alpha1'),
      () => widgetConversion.convert({ ...hub(), kind: 'Gadget' }, 'example.com/v1alpha1'),
      () =>
        widgetConversion.convert(
          { apiVersion: 'example.com/v1', kind: 'Widget' },
          'example.com/v1alpha1',
        ),
    ].map((fn) => thrown(fn).message);
    expect(messages).toEqual([
      'Widget default/w: the desired apiVersion "example.com/v2" is not a version of Widget: expected one of example.com/v1alpha1, example.com/v1',
      'Widget default/w: apiVersion "other.io/v1" is not a version of Widget: expected one of example.com/v1alpha1, example.com/v1',
      'Gadget default/w: has kind "Gadget"; this conversion converts Widget',
      'Widget (no name): is not an object with metadata',
    ]);
  });

  it('fails when a conversion changes metadata beyond labels and annotations, or returns another version', () => {
    const renaming = defineConversion(widget, {
      v1alpha1: {
        toHub: v1alpha1.toHub,
        fromHub: (object) => ({
          ...v1alpha1.fromHub(object),
          metadata: { ...object.metadata, name: 'other', labels: { changed: 'yes' } },
        }),
      },
    });
    expect(thrown(() => renaming.convert(hub(), 'example.com/v1alpha1')).message).toBe(
      "Widget default/w: converting to example.com/v1alpha1 changed metadata.name: a conversion may change only labels and annotations (kube-apiserver refuses anything else); keep the object's metadata",
    );
    const wrongVersion = defineConversion(widget, {
      v1alpha1: {
        toHub: (object) => object as unknown as Widget,
        fromHub: v1alpha1.fromHub,
      },
    });
    expect(thrown(() => wrongVersion.convert(spoke(), 'example.com/v1')).message).toBe(
      `Widget default/w: v1alpha1's toHub returned apiVersion "example.com/v1alpha1", expected "example.com/v1"`,
    );
    const notAnObject = defineConversion(widget, {
      v1alpha1: { toHub: () => undefined as unknown as Widget, fromHub: v1alpha1.fromHub },
    });
    expect(thrown(() => notAnObject.convert(spoke(), 'example.com/v1')).message).toBe(
      "Widget default/w: v1alpha1's toHub did not return an object with metadata",
    );
  });

  it('goes from one spoke to another through the hub', () => {
    const three = defineCustomResource({
      group: 'example.com',
      kind: 'Dial',
      plural: 'dials',
      scope: 'Cluster',
      conversion: 'Webhook',
      versions: [
        { name: 'v1alpha1', spec: Type.Object({ level: Type.String() }) },
        { name: 'v1beta1', spec: Type.Object({ value: Type.Integer() }) },
        { name: 'v1', storage: true, spec: Type.Object({ level: Type.Integer() }) },
      ],
    });
    const calls: string[] = [];
    const conversion = defineConversion(three, {
      v1alpha1: {
        toHub(o) {
          calls.push('v1alpha1.toHub');
          return { ...o, apiVersion: 'example.com/v1', spec: { level: Number(o.spec.level) } };
        },
        fromHub(o) {
          calls.push('v1alpha1.fromHub');
          return {
            ...o,
            apiVersion: 'example.com/v1alpha1',
            spec: { level: String(o.spec.level) },
          };
        },
      },
      v1beta1: {
        toHub(o) {
          calls.push('v1beta1.toHub');
          return { ...o, apiVersion: 'example.com/v1', spec: { level: o.spec.value } };
        },
        fromHub(o) {
          calls.push('v1beta1.fromHub');
          return { ...o, apiVersion: 'example.com/v1beta1', spec: { value: o.spec.level } };
        },
      },
    });
    const object: KubernetesObject = {
      apiVersion: 'example.com/v1alpha1',
      kind: 'Dial',
      metadata: { name: 'd' },
      spec: { level: '7' },
    } as KubernetesObject;
    expect(conversion.convert(object, 'example.com/v1beta1')).toEqual({
      apiVersion: 'example.com/v1beta1',
      kind: 'Dial',
      metadata: { name: 'd' },
      spec: { value: 7 },
    });
    expect(calls).toEqual(['v1alpha1.toHub', 'v1beta1.fromHub']);
  });
});

describe('describeObject', () => {
  it('names namespaced and cluster-scoped objects', () => {
    expect(describeObject(hub())).toBe('Widget default/w');
    expect(describeObject({ kind: 'Dial', metadata: { name: 'd' } })).toBe('Dial d');
    expect(describeObject(null, 'Widget')).toBe('Widget (no name)');
  });
});
