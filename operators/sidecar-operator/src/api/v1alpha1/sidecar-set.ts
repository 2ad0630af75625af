import { ConditionsSchema, type CustomResource, defineCustomResource } from '@ops/core';
import { Type } from '@sinclair/typebox';
import { ContainerSchema } from './container.js';
import { LabelSelectorSchema } from './label-selector.js';

const count = (description: string) =>
  Type.Optional(Type.Integer({ minimum: 0, format: 'int32', description }));

/**
 * The SidecarSet API (`apps.chinalhr.github.io/v1alpha1`, cluster-scoped): one schema for the
 * TypeScript types, the CRD's OpenAPI schema (`pnpm run manifests`) and validation.
 *
 * `spec.selector` is optional in the schema on purpose: the validating webhook
 * `vsidecarset.kb.io` is what rejects a missing or empty selector, with the messages users
 * of the original operator know (`no selector defined for sidecarset`,
 * `empty selector is not valid for sidecarset.`).
 */
export const sidecarSetResource = defineCustomResource({
  group: 'apps.chinalhr.github.io',
  kind: 'SidecarSet',
  plural: 'sidecarsets',
  singular: 'sidecarset',
  scope: 'Cluster',
  description:
    'A SidecarSet: containers injected into every new Pod whose labels match its selector.',
  versions: [
    {
      name: 'v1alpha1',
      served: true,
      storage: true,
      spec: Type.Object(
        {
          selector: Type.Optional(LabelSelectorSchema),
          containers: Type.Optional(
            Type.Array(ContainerSchema, {
              description:
                'The containers added to each matching Pod at its creation, each with the env var IS_INJECTED=true.',
            }),
          ),
        },
        { description: 'Which Pods get which sidecar containers.' },
      ),
      status: Type.Object(
        {
          observedGeneration: Type.Optional(
            Type.Integer({ format: 'int64', description: 'The generation the status describes.' }),
          ),
          matchedPods: count('Active Pods (not finished, not being deleted) the selector matches.'),
          updatedPods: count(
            "Matched Pods injected with the SidecarSet's current containers (their hash in the chinalhr.github.io/sidecar-hash annotation).",
          ),
          readyPods: count('Updated Pods whose Ready condition is True.'),
          conditions: Type.Optional(ConditionsSchema),
        },
        { description: 'How many Pods match and run the current sidecar containers.' },
      ),
      subresources: { status: true },
      printerColumns: [
        { name: 'Matched', type: 'integer', jsonPath: '.status.matchedPods' },
        { name: 'Updated', type: 'integer', jsonPath: '.status.updatedPods' },
        { name: 'Ready', type: 'integer', jsonPath: '.status.readyPods' },
        { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
      ],
    },
  ],
});

/** A SidecarSet object. */
export type SidecarSet = CustomResource<typeof sidecarSetResource>;
