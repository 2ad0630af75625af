import { type Static, Type } from '@sinclair/typebox';

/**
 * The TypeBox schema of one `metav1.Condition`, for a custom resource's status:
 * `status: Type.Object({ conditions: Type.Optional(ConditionsSchema) })`. Its static type is
 * {@link Condition}'s shape, so `setCondition` accepts the objects it describes; the
 * rendered CRD carries the same rules as Kubernetes' own conditions (type and reason
 * patterns, lengths, `lastTransitionTime` as `date-time`).
 */
export const ConditionSchema = Type.Object(
  {
    type: Type.String({
      maxLength: 316,
      pattern:
        '^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$',
      description: 'The kind of condition in CamelCase, e.g. Ready; unique in the list.',
    }),
    status: Type.Union([Type.Literal('True'), Type.Literal('False'), Type.Literal('Unknown')], {
      description: 'True, False or Unknown.',
    }),
    observedGeneration: Type.Optional(
      Type.Integer({
        minimum: 0,
        format: 'int64',
        description: 'The metadata.generation the condition was set from.',
      }),
    ),
    lastTransitionTime: Type.String({
      format: 'date-time',
      description: 'When the status last changed.',
    }),
    reason: Type.String({
      minLength: 1,
      maxLength: 1024,
      pattern: '^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$',
      description: 'CamelCase, machine-readable reason of the last transition.',
    }),
    message: Type.String({
      maxLength: 32768,
      description: 'Human-readable details of the last transition.',
    }),
  },
  { description: 'One aspect of the current state of the object (metav1.Condition).' },
);

/**
 * The TypeBox schema of `status.conditions`: a list of {@link ConditionSchema} keyed by
 * `type` (`x-kubernetes-list-type: map`), so server-side apply merges conditions by type.
 */
export const ConditionsSchema = Type.Array(ConditionSchema, {
  maxItems: 64,
  'x-kubernetes-list-type': 'map',
  'x-kubernetes-list-map-keys': ['type'],
  description: 'The latest observations of the object, one per condition type.',
});

/** What {@link ConditionSchema} describes (the same shape as `Condition`). */
export type ConditionObject = Static<typeof ConditionSchema>;
