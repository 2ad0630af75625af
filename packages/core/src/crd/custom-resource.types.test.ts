import type { KubernetesObject, ObjectMeta } from '@ops/api';
import { type Static, Type } from '@sinclair/typebox';
import { describe, expectTypeOf, it } from 'vitest';
import type { ResourceDescriptor } from '../kinds/resource-descriptor.js';
import {
  type CustomResource,
  type CustomResourceVersionName,
  defineCustomResource,
} from './custom-resource.js';
import { EmbeddedResource, IntOrString, PreserveUnknownFields } from './kubernetes-schema-types.js';

const application = defineCustomResource({
  group: 'core.crd.lixueduan.com',
  kind: 'Application',
  plural: 'applications',
  scope: 'Namespaced',
  versions: [
    {
      name: 'v1',
      spec: Type.Object({
        enabled: Type.Optional(Type.Boolean({ default: true })),
        image: Type.String(),
      }),
      status: Type.Object({ ready: Type.Boolean() }),
    },
  ],
});
type Application = CustomResource<typeof application>;

const gadget = defineCustomResource({
  group: 'example.com',
  kind: 'Gadget',
  plural: 'gadgets',
  scope: 'Cluster',
  versions: [
    { name: 'v1alpha1', spec: Type.Object({ size: Type.Integer() }) },
    {
      name: 'v1',
      storage: true,
      spec: Type.Object({
        size: IntOrString(),
        values: PreserveUnknownFields(),
        template: EmbeddedResource(Type.Object({ data: Type.Optional(Type.String()) })),
        mode: Type.Union([Type.Literal('fast'), Type.Literal('safe')]),
      }),
      status: Type.Object({ observed: Type.Optional(Type.Integer()) }),
    },
  ],
});

describe('CustomResource types', () => {
  it('gives the object type of the storage version', () => {
    expectTypeOf<Application>().toEqualTypeOf<{
      apiVersion: 'core.crd.lixueduan.com/v1';
      kind: 'Application';
      metadata: ObjectMeta;
      spec: { enabled?: boolean; image: string };
      status?: { ready: boolean };
    }>();
    expectTypeOf<Application>().toExtend<KubernetesObject>();
    expectTypeOf(application.apiVersion).toEqualTypeOf<'core.crd.lixueduan.com/v1'>();
    expectTypeOf(application.kind).toEqualTypeOf<'Application'>();
    expectTypeOf(application.descriptor).toEqualTypeOf<ResourceDescriptor>();
  });

  it('picks the storage version among several, or the one asked for', () => {
    type Gadget = CustomResource<typeof gadget>;
    expectTypeOf<CustomResourceVersionName<typeof gadget>>().toEqualTypeOf<'v1alpha1' | 'v1'>();
    expectTypeOf(gadget.version).toEqualTypeOf<'v1'>();
    expectTypeOf<Gadget['apiVersion']>().toEqualTypeOf<'example.com/v1'>();
    expectTypeOf<Gadget['spec']['size']>().toEqualTypeOf<number | string>();
    expectTypeOf<Gadget['spec']['values']>().toEqualTypeOf<Record<string, unknown>>();
    expectTypeOf<Gadget['spec']['mode']>().toEqualTypeOf<'fast' | 'safe'>();
    expectTypeOf<Gadget['spec']['template']['apiVersion']>().toEqualTypeOf<string>();
    expectTypeOf<Gadget['spec']['template']['data']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<Gadget['status']>().toEqualTypeOf<{ observed?: number } | undefined>();

    type Alpha = CustomResource<typeof gadget, 'v1alpha1'>;
    expectTypeOf<Alpha['apiVersion']>().toEqualTypeOf<'example.com/v1alpha1'>();
    expectTypeOf<Alpha['spec']>().toEqualTypeOf<{ size: number }>();
    // A version without status has no status field.
    expectTypeOf<Alpha>().not.toHaveProperty('status');
  });

  it('accepts objects of the type and rejects others', () => {
    const demo: Application = {
      apiVersion: 'core.crd.lixueduan.com/v1',
      kind: 'Application',
      metadata: { name: 'demo' },
      spec: { image: 'nginx' },
    };
    expectTypeOf(demo.spec).toEqualTypeOf<
      Static<(typeof application.options.versions)[0]['spec']>
    >();
    // @ts-expect-error image is required
    const missing: Application['spec'] = { enabled: true };
    // @ts-expect-error kind is a literal
    const wrongKind: Application['kind'] = 'Other';
    expectTypeOf(missing).toBeObject();
    expectTypeOf(wrongKind).toBeString();
  });
});
