/**
 * A CRD whose schema carries CEL validation rules (`x-kubernetes-validations`) of every kind
 * kube-apiserver evaluates: plain rules with `message`, the default message, `messageExpression`,
 * `reason` and `fieldPath`, a transition rule on `oldSelf`, an `optionalOldSelf` rule, rules on
 * list items, map values, timestamps, durations and quantities, and the status subresource. The CEL suites install it on both planes.
 */
export const widgetCrd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.cel.ops.dev' },
  spec: {
    group: 'cel.ops.dev',
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: { status: {} },
        schema: {
          openAPIV3Schema: {
            type: 'object',
            'x-kubernetes-validations': [
              {
                rule: "self.metadata.name.startsWith('w-')",
                message: 'the name must start with w-',
              },
            ],
            properties: {
              spec: {
                type: 'object',
                'x-kubernetes-validations': [
                  {
                    rule: 'self.minReplicas <= self.maxReplicas',
                    message: 'minReplicas must not exceed maxReplicas',
                  },
                  {
                    rule: "self.mode != 'legacy' || has(self.legacyConfig)",
                    message: 'legacyConfig is required in legacy mode',
                    reason: 'FieldValueRequired',
                    fieldPath: '.legacyConfig',
                  },
                ],
                properties: {
                  minReplicas: { type: 'integer', default: 1 },
                  maxReplicas: { type: 'integer', default: 3 },
                  mode: { type: 'string', default: 'standard' },
                  legacyConfig: { type: 'string' },
                  name: {
                    type: 'string',
                    'x-kubernetes-validations': [
                      {
                        rule: "self.matches('^[a-z]+$')",
                        messageExpression: "'name ' + self + ' must be lowercase letters'",
                      },
                    ],
                  },
                  id: {
                    type: 'string',
                    'x-kubernetes-validations': [
                      { rule: 'self == oldSelf', message: 'id is immutable' },
                    ],
                  },
                  size: {
                    type: 'integer',
                    'x-kubernetes-validations': [
                      {
                        rule: '!oldSelf.hasValue() || self >= oldSelf.value()',
                        optionalOldSelf: true,
                        message: 'size may only grow',
                      },
                    ],
                  },
                  tags: {
                    type: 'array',
                    items: { type: 'string' },
                    'x-kubernetes-validations': [{ rule: 'self.all(t, t.size() <= 5)' }],
                  },
                  window: {
                    type: 'object',
                    properties: {
                      start: { type: 'string', format: 'date-time' },
                      end: { type: 'string', format: 'date-time' },
                      grace: { type: 'string', format: 'duration' },
                    },
                    'x-kubernetes-validations': [
                      {
                        rule: '!has(self.grace) || self.start + self.grace < self.end',
                        message: 'the window must outlast its grace period',
                      },
                    ],
                  },
                  memory: {
                    type: 'string',
                    maxLength: 20,
                    'x-kubernetes-validations': [
                      {
                        rule: "quantity(self).isLessThan(quantity('1Gi'))",
                        message: 'memory must be below 1Gi',
                      },
                    ],
                  },
                  ports: {
                    type: 'object',
                    additionalProperties: {
                      type: 'integer',
                      'x-kubernetes-validations': [
                        {
                          rule: 'self > 0 && self < 65536',
                          message: 'must be a port number',
                        },
                      ],
                    },
                  },
                },
              },
              status: {
                type: 'object',
                properties: {
                  phase: {
                    type: 'string',
                    'x-kubernetes-validations': [
                      {
                        rule: "self in ['Pending', 'Running']",
                        message: 'phase must be Pending or Running',
                        reason: 'FieldValueForbidden',
                      },
                    ],
                  },
                },
              },
            },
          },
        },
      },
    ],
  },
};
