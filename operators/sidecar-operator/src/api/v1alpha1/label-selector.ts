import { Type } from '@sinclair/typebox';

/**
 * `metav1.LabelSelector` as a schema: `matchLabels` and `matchExpressions` (operators `In`,
 * `NotIn`, `Exists`, `DoesNotExist`). Whether the selector makes sense (values for `In`,
 * valid keys) is checked by the validating webhook, which answers with Invalid on
 * `spec.selector`.
 */
export const LabelSelectorSchema = Type.Object(
  {
    matchLabels: Type.Optional(
      Type.Record(Type.String(), Type.String(), {
        description: 'Labels a Pod must carry, with these values.',
      }),
    ),
    matchExpressions: Type.Optional(
      Type.Array(
        Type.Object(
          {
            key: Type.String({ description: 'The label key.' }),
            operator: Type.Union(
              [
                Type.Literal('In'),
                Type.Literal('NotIn'),
                Type.Literal('Exists'),
                Type.Literal('DoesNotExist'),
              ],
              { description: 'In, NotIn, Exists or DoesNotExist.' },
            ),
            values: Type.Optional(
              Type.Array(Type.String(), {
                description: 'The values, for In and NotIn (at least one); none otherwise.',
              }),
            ),
          },
          { description: 'A requirement on one label.' },
        ),
        { description: 'Requirements on labels; all must hold.' },
      ),
    ),
  },
  {
    description:
      'Which Pods get the containers. Required and not empty (an empty selector matches no Pod).',
  },
);
