/**
 * A kind with two versions and a conversion that loses fields, for the conversion tests (not
 * exported by the package): `v1alpha1` has `spec.replicas`; `v1`, the storage version and
 * hub, moved it to `spec.scale.replicas` and added `spec.scale.max` and `status.message`,
 * which `v1alpha1` keeps in its conversion-data annotation.
 */

import { Type } from '@sinclair/typebox';
import { type Conversion, defineConversion } from './conversion.js';
import { conversionData } from './conversion-data.js';
import { type CustomResource, defineCustomResource } from './custom-resource.js';

export const widget = defineCustomResource({
  group: 'example.com',
  kind: 'Widget',
  plural: 'widgets',
  scope: 'Namespaced',
  conversion: 'Webhook',
  versions: [
    {
      name: 'v1alpha1',
      spec: Type.Object({ replicas: Type.Integer(), color: Type.Optional(Type.String()) }),
      status: Type.Object({ ready: Type.Optional(Type.Boolean()) }),
      printerColumns: [{ name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' }],
    },
    {
      name: 'v1',
      storage: true,
      spec: Type.Object({
        scale: Type.Object({ replicas: Type.Integer(), max: Type.Optional(Type.Integer()) }),
        color: Type.Optional(Type.String()),
      }),
      status: Type.Object({
        ready: Type.Optional(Type.Boolean()),
        message: Type.Optional(Type.String()),
      }),
      printerColumns: [{ name: 'Replicas', type: 'integer', jsonPath: '.spec.scale.replicas' }],
    },
  ],
});

export type Widget = CustomResource<typeof widget>;
export type WidgetV1alpha1 = CustomResource<typeof widget, 'v1alpha1'>;

/** The most replicas `v1alpha1` can express; larger ones are refused in that version. */
export const v1alpha1MaxReplicas = 100;

const kept = conversionData(widget);

export const v1alpha1: Conversion<typeof widget, 'v1alpha1'> = {
  toHub(spoke) {
    const { metadata, kept: saved } = kept.restore(spoke);
    const max = saved?.spec?.scale?.max;
    const message = saved?.status?.message;
    const hub: Widget = {
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata,
      spec: {
        scale: { replicas: spoke.spec.replicas, ...(max === undefined ? {} : { max }) },
        ...(spoke.spec.color === undefined ? {} : { color: spoke.spec.color }),
      },
    };
    if (spoke.status !== undefined) {
      hub.status = { ...spoke.status, ...(message === undefined ? {} : { message }) };
    }
    return hub;
  },
  fromHub(hub) {
    if (hub.spec.scale.replicas > v1alpha1MaxReplicas) {
      throw new Error(
        `spec.scale.replicas ${hub.spec.scale.replicas} does not fit v1alpha1 (at most ${v1alpha1MaxReplicas}): read it as example.com/v1`,
      );
    }
    const spoke: WidgetV1alpha1 = {
      apiVersion: 'example.com/v1alpha1',
      kind: 'Widget',
      metadata: hub.metadata,
      spec: {
        replicas: hub.spec.scale.replicas,
        ...(hub.spec.color === undefined ? {} : { color: hub.spec.color }),
      },
    };
    if (hub.status !== undefined) {
      const { message: _message, ...status } = hub.status;
      spoke.status = status;
    }
    return kept.save(spoke, {
      spec: { scale: { max: hub.spec.scale.max } },
      status: { message: hub.status?.message },
    });
  },
};

export const widgetConversion = defineConversion(widget, { v1alpha1 });
