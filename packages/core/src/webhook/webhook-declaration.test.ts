import { describe, expect, it } from 'vitest';
import { WebhookDeclarationError } from '../errors/webhook-declaration-error.js';
import { WebhookServerError } from '../errors/webhook-server-error.js';
import { admissionAllowed } from './admission-handler.js';
import {
  checkWebhookDeclarations,
  defineWebhook,
  isWebhookDeclaration,
  type WebhookSpec,
  webhookConfigurations,
} from './webhook-declaration.js';
import { WebhookServer } from './webhook-server.js';

const handler = () => admissionAllowed();
const rules = [
  {
    apiGroups: ['apps'],
    apiVersions: ['v1'],
    operations: ['CREATE' as const, 'UPDATE' as const],
    resources: ['deployments'],
  },
];
const validating: WebhookSpec = {
  type: 'validating',
  name: 'vdeployment.example.com',
  path: '/validate-apps-v1-deployment',
  rules,
  handler,
};
const mutating: WebhookSpec = {
  type: 'mutating',
  name: 'mdeployment.example.com',
  path: '/mutate-apps-v1-deployment',
  rules,
  handler,
};

function refusal(spec: WebhookSpec): string {
  try {
    defineWebhook(spec);
  } catch (error) {
    expect(WebhookDeclarationError.isInstance(error)).toBe(true);
    return (error as Error).message;
  }
  throw new Error('defineWebhook accepted the spec');
}

describe('defineWebhook', () => {
  it('fills the defaults controller-gen writes and freezes the declaration', () => {
    const declaration = defineWebhook(validating);
    expect(declaration).toMatchObject({
      ...validating,
      failurePolicy: 'Fail',
      sideEffects: 'None',
      admissionReviewVersions: ['v1'],
    });
    expect(isWebhookDeclaration(declaration)).toBe(true);
    expect(isWebhookDeclaration({ ...validating })).toBe(false);
    expect(Object.isFrozen(declaration)).toBe(true);
  });

  it('refuses what the API server would refuse, naming the webhook and the field', () => {
    expect(refusal({ ...validating, name: 'short.name' })).toBe(
      'webhook "short.name": name must be a lower-case fully qualified domain name of at least three labels, e.g. "vapplication-v1.example.com"',
    );
    expect(refusal({ ...validating, name: 'Upper.Example.com' })).toContain('lower-case');
    expect(refusal({ ...validating, path: 'validate' })).toBe(
      'webhook "vdeployment.example.com": path "validate" is not a URL path: start it with "/" and leave out any query, e.g. "/validate-apps-v1-deployment"',
    );
    expect(refusal({ ...validating, path: '/v?x=1' })).toContain('is not a URL path');
    expect(refusal({ ...validating, rules: [] })).toBe(
      'webhook "vdeployment.example.com": rules is empty: list at least one rule',
    );
    expect(refusal({ ...validating, rules: [{ ...rules[0], resources: [] }] as never })).toBe(
      'webhook "vdeployment.example.com": rules[0].resources is empty: list at least one (or \'*\')',
    );
    expect(refusal({ ...validating, timeoutSeconds: 31 })).toBe(
      'webhook "vdeployment.example.com": timeoutSeconds must be a whole number from 1 to 30, got 31',
    );
    expect(refusal({ ...validating, reinvocationPolicy: 'IfNeeded' })).toBe(
      'webhook "vdeployment.example.com": reinvocationPolicy applies to mutating webhooks only: remove it',
    );
    expect(refusal({ ...validating, handler: undefined as never })).toContain(
      'handler must be a function',
    );
    expect(refusal({ ...validating, type: 'other' as never })).toContain(
      'type must be "mutating" or "validating", got "other"',
    );
  });
});

describe('webhookConfigurations', () => {
  it('renders a Mutating then a Validating configuration, as kubebuilder names them', () => {
    const [first, second, ...rest] = webhookConfigurations([
      defineWebhook(validating),
      defineWebhook({
        ...mutating,
        failurePolicy: 'Ignore',
        timeoutSeconds: 5,
        reinvocationPolicy: 'IfNeeded',
        objectSelector: { matchLabels: { app: 'x' } },
        namespaceSelector: { matchExpressions: [{ key: 'env', operator: 'Exists' }] },
        matchPolicy: 'Equivalent',
        sideEffects: 'NoneOnDryRun',
        rules: [{ ...rules[0], scope: 'Namespaced' }] as never,
      }),
    ]);
    expect(rest).toEqual([]);
    const configuration = (kind: string, webhook: Record<string, unknown>) => ({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: `${kind}WebhookConfiguration`,
      metadata: { name: `${kind.toLowerCase()}-webhook-configuration` },
      webhooks: [
        {
          admissionReviewVersions: ['v1'],
          clientConfig: {
            service: { name: 'webhook-service', namespace: 'system', path: webhook.path },
          },
          ...webhook,
          path: undefined,
        },
      ],
    });
    expect(first).toEqual(
      configuration('Mutating', {
        path: '/mutate-apps-v1-deployment',
        failurePolicy: 'Ignore',
        matchPolicy: 'Equivalent',
        name: 'mdeployment.example.com',
        namespaceSelector: { matchExpressions: [{ key: 'env', operator: 'Exists' }] },
        objectSelector: { matchLabels: { app: 'x' } },
        reinvocationPolicy: 'IfNeeded',
        rules: [{ ...rules[0], scope: 'Namespaced' }],
        sideEffects: 'NoneOnDryRun',
        timeoutSeconds: 5,
      }),
    );
    expect(second).toEqual(
      configuration('Validating', {
        path: '/validate-apps-v1-deployment',
        failurePolicy: 'Fail',
        name: 'vdeployment.example.com',
        rules,
        sideEffects: 'None',
      }),
    );
    // Only the fields the declaration sets, none undefined (as controller-gen writes them).
    expect(Object.keys(second?.webhooks[0] ?? {}).sort()).toEqual([
      'admissionReviewVersions',
      'clientConfig',
      'failurePolicy',
      'name',
      'rules',
      'sideEffects',
    ]);
  });

  it('leaves out a kind without webhooks and takes other names', () => {
    const configurations = webhookConfigurations([defineWebhook(validating)], {
      validatingName: 'v',
      service: { name: 'svc', namespace: 'ns' },
    });
    expect(configurations.map((object) => [object.kind, object.metadata.name])).toEqual([
      ['ValidatingWebhookConfiguration', 'v'],
    ]);
    expect(configurations[0]?.webhooks[0]?.clientConfig).toEqual({
      service: { name: 'svc', namespace: 'ns', path: '/validate-apps-v1-deployment' },
    });
  });

  it('refuses two webhooks on one path, two of one type with one name, and non-declarations', () => {
    expect(() =>
      checkWebhookDeclarations([
        defineWebhook(validating),
        defineWebhook({ ...mutating, path: validating.path }),
      ]),
    ).toThrow(
      'webhooks "vdeployment.example.com" and "mdeployment.example.com" share the path /validate-apps-v1-deployment: give each webhook its own path',
    );
    expect(() =>
      webhookConfigurations([
        defineWebhook(validating),
        defineWebhook({ ...validating, path: '/other' }),
      ]),
    ).toThrow('two validating webhooks are named "vdeployment.example.com"');
    expect(() => checkWebhookDeclarations([validating])).toThrow(
      'webhooks[0] is not a webhook declaration: make it with defineWebhook from @ops/core',
    );
  });
});

describe('WebhookServer.register(declaration)', () => {
  it('serves the handler at the declared path', () => {
    const server = new WebhookServer();
    server.register(defineWebhook(validating)).register(defineWebhook(mutating));
    expect(server.paths).toEqual(['/validate-apps-v1-deployment', '/mutate-apps-v1-deployment']);
    expect(() => server.register(defineWebhook(validating))).toThrow(WebhookServerError);
  });

  it('refuses a path without a handler', () => {
    const server = new WebhookServer();
    expect(() => (server.register as unknown as (path: string) => void)('/x')).toThrow(
      'no handler given for /x: call register(path, handler), or register(declaration) with a defineWebhook declaration',
    );
  });
});
