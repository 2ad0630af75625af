import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { CustomResourceDefinitionError } from '../errors/custom-resource-definition-error.js';
import { StructuralSchemaError } from '../errors/structural-schema-error.js';
import {
  conversionWebhookPath,
  defineCustomResource,
  isCustomResourceDefinition,
} from './custom-resource.js';
import { IntOrString } from './kubernetes-schema-types.js';
import { widget } from './test-widget.js';

/** The first operator's kind, as its Go version (kubebuilder) declared it. */
const application = defineCustomResource({
  group: 'core.crd.lixueduan.com',
  kind: 'Application',
  plural: 'applications',
  scope: 'Namespaced',
  description: 'Application is the Schema for the applications API.',
  versions: [
    {
      name: 'v1',
      spec: Type.Object(
        {
          enabled: Type.Optional(
            Type.Boolean({ default: true, description: 'Whether the application runs.' }),
          ),
          image: Type.String({ description: 'The container image of the application.' }),
        },
        { description: 'ApplicationSpec defines the desired state of Application.' },
      ),
      status: Type.Object(
        { ready: Type.Boolean({ description: 'Whether the application is ready.' }) },
        { description: 'ApplicationStatus defines the observed state of Application.' },
      ),
      printerColumns: [
        { name: 'Image', type: 'string', jsonPath: '.spec.image' },
        { name: 'Enabled', type: 'boolean', jsonPath: '.spec.enabled' },
        { name: 'Ready', type: 'boolean', jsonPath: '.status.ready' },
        { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
      ],
    },
  ],
});

const apiVersionDescription =
  'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources';
const kindDescription =
  'Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds';

/** Thrown error of `fn`, which must throw. */
function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('defineCustomResource: the Application kind', () => {
  it('renders the CustomResourceDefinition kubebuilder would, keys sorted', () => {
    const expected = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'applications.core.crd.lixueduan.com' },
      spec: {
        group: 'core.crd.lixueduan.com',
        names: {
          kind: 'Application',
          listKind: 'ApplicationList',
          plural: 'applications',
          singular: 'application',
        },
        scope: 'Namespaced',
        versions: [
          {
            additionalPrinterColumns: [
              { jsonPath: '.spec.image', name: 'Image', type: 'string' },
              { jsonPath: '.spec.enabled', name: 'Enabled', type: 'boolean' },
              { jsonPath: '.status.ready', name: 'Ready', type: 'boolean' },
              { jsonPath: '.metadata.creationTimestamp', name: 'Age', type: 'date' },
            ],
            name: 'v1',
            schema: {
              openAPIV3Schema: {
                description: 'Application is the Schema for the applications API.',
                properties: {
                  apiVersion: { description: apiVersionDescription, type: 'string' },
                  kind: { description: kindDescription, type: 'string' },
                  metadata: { type: 'object' },
                  spec: {
                    description: 'ApplicationSpec defines the desired state of Application.',
                    properties: {
                      enabled: {
                        default: true,
                        description: 'Whether the application runs.',
                        type: 'boolean',
                      },
                      image: {
                        description: 'The container image of the application.',
                        type: 'string',
                      },
                    },
                    required: ['image'],
                    type: 'object',
                  },
                  status: {
                    description: 'ApplicationStatus defines the observed state of Application.',
                    properties: {
                      ready: { description: 'Whether the application is ready.', type: 'boolean' },
                    },
                    required: ['ready'],
                    type: 'object',
                  },
                },
                required: ['spec'],
                type: 'object',
              },
            },
            served: true,
            storage: true,
            subresources: { status: {} },
          },
        ],
      },
    };
    const crd = application.crd();
    expect(crd).toStrictEqual(expected);
    // Same keys in the same (sorted) order, so that YAML output is stable.
    expect(JSON.stringify(crd)).toBe(JSON.stringify(expected));
  });

  it('describes where the kind lives', () => {
    expect(application.apiVersion).toBe('core.crd.lixueduan.com/v1');
    expect(application.version).toBe('v1');
    expect(application.kind).toBe('Application');
    expect(application.name).toBe('applications.core.crd.lixueduan.com');
    expect(application.namespaced).toBe(true);
    expect(application.descriptor).toEqual({
      group: 'core.crd.lixueduan.com',
      version: 'v1',
      kind: 'Application',
      plural: 'applications',
      namespaced: true,
    });
    expect(isCustomResourceDefinition(application)).toBe(true);
    expect(isCustomResourceDefinition({ ...application.descriptor })).toBe(false);
    expect(isCustomResourceDefinition(null)).toBe(false);
  });

  it('returns a new CRD object on every call', () => {
    const first = application.crd();
    first.spec.names.kind = 'Changed';
    expect(application.crd().spec.names.kind).toBe('Application');
    expect(application.crd()).not.toBe(application.crd());
  });

  it('validates objects client-side against the version their apiVersion names', () => {
    const valid = {
      apiVersion: 'core.crd.lixueduan.com/v1',
      kind: 'Application',
      metadata: { name: 'demo', namespace: 'default' },
      spec: { image: 'nginx:1.27' },
    };
    expect(application.validate(valid)).toEqual([]);
    expect(application.validate({ ...valid, status: { ready: true } })).toEqual([]);

    const noImage = application.validate({ ...valid, spec: { enabled: 'yes' } });
    expect(noImage.map((issue) => issue.path)).toEqual(
      expect.arrayContaining(['/spec/image', '/spec/enabled']),
    );
    expect(noImage.find((issue) => issue.path === '/spec/enabled')?.value).toBe('yes');

    const badStatus = application.validate({ ...valid, status: { ready: 'no' } });
    expect(badStatus.map((issue) => issue.path)).toContain('/status/ready');

    expect(application.validate({ ...valid, kind: 'Other' }).map((issue) => issue.path)).toEqual([
      '/kind',
    ]);
    expect(application.validate({ ...valid, apiVersion: 'core.crd.lixueduan.com/v2' })).toEqual([
      {
        path: '/apiVersion',
        message: 'Expected one of "core.crd.lixueduan.com/v1"',
        value: 'core.crd.lixueduan.com/v2',
      },
    ]);
    expect(application.validate('nope')).toEqual([
      { path: '', message: 'Expected an object', value: 'nope' },
    ]);
    const { spec: _spec, ...withoutSpec } = valid;
    expect(application.validate(withoutSpec).map((issue) => issue.path)).toContain('/spec');
  });
});

describe('defineCustomResource: other shapes', () => {
  it('renders a cluster-scoped kind without status', () => {
    const clusterIssuer = defineCustomResource({
      group: 'example.com',
      kind: 'ClusterPolicy',
      plural: 'clusterpolicies',
      singular: 'clusterpolicy',
      shortNames: ['cpol'],
      categories: ['policies', 'all'],
      scope: 'Cluster',
      annotations: { 'example.com/owner': 'platform' },
      versions: [
        {
          name: 'v1alpha1',
          spec: Type.Object({ rules: Type.Array(Type.String(), { maxItems: 10 }) }),
          selectableFields: [{ jsonPath: '.spec.mode' }],
        },
      ],
    });
    const crd = clusterIssuer.crd();
    expect(crd.metadata).toEqual({
      annotations: { 'example.com/owner': 'platform' },
      name: 'clusterpolicies.example.com',
    });
    expect(crd.spec.scope).toBe('Cluster');
    expect(crd.spec.names).toEqual({
      categories: ['policies', 'all'],
      kind: 'ClusterPolicy',
      listKind: 'ClusterPolicyList',
      plural: 'clusterpolicies',
      shortNames: ['cpol'],
      singular: 'clusterpolicy',
    });
    const [version] = crd.spec.versions;
    expect(version).not.toHaveProperty('subresources');
    expect(version).not.toHaveProperty('additionalPrinterColumns');
    expect(version?.selectableFields).toEqual([{ jsonPath: '.spec.mode' }]);
    expect(version?.schema.openAPIV3Schema.properties).not.toHaveProperty('status');
    expect(version?.schema.openAPIV3Schema).not.toHaveProperty('description');
    expect(clusterIssuer.descriptor.namespaced).toBe(false);
    expect(clusterIssuer.namespaced).toBe(false);
  });

  it('renders several versions with one storage version, scale and deprecation', () => {
    const spec = Type.Object({ replicas: Type.Integer({ minimum: 0, format: 'int32' }) });
    const status = Type.Object({
      replicas: Type.Integer({ format: 'int32' }),
      selector: Type.String(),
    });
    const worker = defineCustomResource({
      group: 'batch.example.com',
      kind: 'Worker',
      plural: 'workers',
      scope: 'Namespaced',
      versions: [
        {
          name: 'v1beta1',
          served: true,
          deprecated: true,
          deprecationWarning: 'batch.example.com/v1beta1 Worker is deprecated; use v1',
          spec,
          status,
          subresources: { status: false },
        },
        {
          name: 'v1',
          storage: true,
          spec,
          status,
          printerColumns: [
            {
              name: 'Replicas',
              type: 'integer',
              jsonPath: '.status.replicas',
              format: 'int32',
              priority: 1,
              description: 'Observed replicas',
            },
          ],
          subresources: {
            scale: {
              specReplicasPath: '.spec.replicas',
              statusReplicasPath: '.status.replicas',
              labelSelectorPath: '.status.selector',
            },
          },
        },
      ],
    });
    expect(worker.apiVersion).toBe('batch.example.com/v1');
    const [beta, v1] = worker.crd().spec.versions;
    expect(beta).toMatchObject({
      name: 'v1beta1',
      served: true,
      storage: false,
      deprecated: true,
      deprecationWarning: 'batch.example.com/v1beta1 Worker is deprecated; use v1',
    });
    expect(beta).not.toHaveProperty('subresources');
    expect(v1?.storage).toBe(true);
    expect(v1?.subresources).toEqual({
      scale: {
        labelSelectorPath: '.status.selector',
        specReplicasPath: '.spec.replicas',
        statusReplicasPath: '.status.replicas',
      },
      status: {},
    });
    expect(v1?.additionalPrinterColumns).toEqual([
      {
        description: 'Observed replicas',
        format: 'int32',
        jsonPath: '.status.replicas',
        name: 'Replicas',
        priority: 1,
        type: 'integer',
      },
    ]);
    const object = {
      apiVersion: 'batch.example.com/v1beta1',
      kind: 'Worker',
      metadata: {},
      spec: { replicas: -1 },
    };
    expect(worker.validate(object).map((issue) => issue.path)).toEqual(['/spec/replicas']);
  });

  it('carries the schema helpers into the CRD', () => {
    const service = defineCustomResource({
      group: 'net.example.com',
      kind: 'Route',
      plural: 'routes',
      scope: 'Namespaced',
      versions: [{ name: 'v1', spec: Type.Object({ targetPort: IntOrString() }) }],
    });
    const spec = service.crd().spec.versions[0]?.schema.openAPIV3Schema.properties?.spec;
    expect(spec?.properties?.targetPort).toEqual({
      anyOf: [{ type: 'integer' }, { type: 'string' }],
      'x-kubernetes-int-or-string': true,
    });
  });
});

describe('defineCustomResource: conversion', () => {
  it('renders spec.conversion calling the webhook Service at /convert, for kustomize to rename', () => {
    expect(widget.crd().spec.conversion).toEqual({
      strategy: 'Webhook',
      webhook: {
        clientConfig: {
          service: { name: 'webhook-service', namespace: 'system', path: '/convert' },
        },
        conversionReviewVersions: ['v1'],
      },
    });
    expect(conversionWebhookPath).toBe('/convert');
    // Each version keeps its own schema and printer columns.
    expect(
      widget.crd().spec.versions.map((version) => ({
        name: version.name,
        storage: version.storage,
        columns: version.additionalPrinterColumns?.map((column) => column.jsonPath),
        spec: Object.keys(version.schema.openAPIV3Schema.properties?.spec?.properties ?? {}),
      })),
    ).toEqual([
      {
        name: 'v1alpha1',
        storage: false,
        columns: ['.spec.replicas'],
        spec: ['color', 'replicas'],
      },
      { name: 'v1', storage: true, columns: ['.spec.scale.replicas'], spec: ['color', 'scale'] },
    ]);
  });

  it('renders no conversion by default or with None', () => {
    expect(application.crd().spec.conversion).toBeUndefined();
    const none = defineCustomResource({ ...widget.options, conversion: 'None' });
    expect(none.crd().spec.conversion).toBeUndefined();
  });
});

describe('defineCustomResource: string formats', () => {
  it('leaves formats to the API server in defaults and validate', () => {
    const schedule = defineCustomResource({
      group: 'example.com',
      kind: 'Schedule',
      plural: 'schedules',
      scope: 'Namespaced',
      versions: [
        {
          name: 'v1',
          spec: Type.Object({
            start: Type.String({ format: 'date-time', default: '2024-01-01T00:00:00Z' }),
          }),
          status: Type.Object({
            last: Type.Optional(Type.Union([Type.String({ format: 'date-time' }), Type.Null()])),
          }),
        },
      ],
    });
    const spec = schedule.crd().spec.versions[0]?.schema.openAPIV3Schema.properties?.spec;
    expect(spec?.properties?.start).toEqual({
      default: '2024-01-01T00:00:00Z',
      format: 'date-time',
      type: 'string',
    });
    const object = {
      apiVersion: 'example.com/v1',
      kind: 'Schedule',
      metadata: { name: 'nightly' },
      spec: { start: '2024-05-01T02:00:00Z' },
      status: { last: '2024-05-01T02:00:03Z' },
    };
    expect(schedule.validate(object)).toEqual([]);
    expect(schedule.validate({ ...object, spec: { start: 7 } }).map((issue) => issue.path)).toEqual(
      ['/spec/start'],
    );
  });
});

describe('defineCustomResource: mistakes', () => {
  const base = {
    group: 'example.com',
    kind: 'Thing',
    plural: 'things',
    scope: 'Namespaced',
    versions: [{ name: 'v1', spec: Type.Object({}) }],
  } as const;

  const cases: [string, Record<string, unknown>, string, RegExp][] = [
    ['a group without a dot', { group: 'example' }, 'group', /at least one dot/],
    ['an uppercase group', { group: 'Example.com' }, 'group', /lower case/],
    ['an uppercase plural', { plural: 'Things' }, 'plural', /"Things"/],
    ['a kind with a dot', { kind: 'Th.ing' }, 'kind', /CamelCase/],
    ['listKind equal to kind', { listKind: 'Thing' }, 'listKind', /differ/],
    ['a bad short name', { shortNames: ['th', 'T H'] }, 'shortNames[1]', /"T H"/],
    ['a duplicate category', { categories: ['all', 'all'] }, 'categories', /twice/],
    ['a bad scope', { scope: 'Global' }, 'scope', /"Namespaced" or "Cluster"/],
    ['no versions', { versions: [] }, 'versions', /at least one/],
    [
      'a conversion webhook for one version',
      { conversion: 'Webhook' },
      'conversion',
      /is "Webhook" but the kind has one version: a conversion webhook converts between versions/,
    ],
    [
      'an unknown conversion strategy',
      { conversion: 'Magic' },
      'conversion',
      /"None" or "Webhook"/,
    ],
    [
      'a bad version name',
      { versions: [{ name: 'V1', spec: Type.Object({}) }] },
      'versions[0].name',
      /DNS-1035/,
    ],
    [
      'a duplicate version',
      {
        versions: [
          { name: 'v1', spec: Type.Object({}), storage: true },
          { name: 'v1', spec: Type.Object({}) },
        ],
      },
      'versions[1].name',
      /twice/,
    ],
    [
      'two storage versions',
      {
        versions: [
          { name: 'v1', spec: Type.Object({}), storage: true },
          { name: 'v2', spec: Type.Object({}), storage: true },
        ],
      },
      'versions',
      /found v1, v2/,
    ],
    [
      'no storage version among several',
      {
        versions: [
          { name: 'v1', spec: Type.Object({}) },
          { name: 'v2', spec: Type.Object({}) },
        ],
      },
      'versions',
      /found none/,
    ],
    [
      'no served version',
      { versions: [{ name: 'v1', spec: Type.Object({}), served: false }] },
      'versions',
      /serve at least one/,
    ],
    [
      'a spec that is not an object',
      { versions: [{ name: 'v1', spec: Type.String() }] },
      'versions[0].spec',
      /object schema/,
    ],
    [
      'a printer column without a leading dot',
      {
        versions: [
          {
            name: 'v1',
            spec: Type.Object({}),
            printerColumns: [{ name: 'Image', type: 'string', jsonPath: 'spec.image' }],
          },
        ],
      },
      'versions[0].printerColumns[0].jsonPath',
      /must start with \./,
    ],
    [
      'a printer column of an unknown type',
      {
        versions: [
          {
            name: 'v1',
            spec: Type.Object({}),
            printerColumns: [{ name: 'Image', type: 'text', jsonPath: '.spec.image' }],
          },
        ],
      },
      'versions[0].printerColumns[0].type',
      /one of integer, number, string, boolean, date/,
    ],
    [
      'duplicate printer columns',
      {
        versions: [
          {
            name: 'v1',
            spec: Type.Object({}),
            printerColumns: [
              { name: 'Image', type: 'string', jsonPath: '.spec.image' },
              { name: 'Image', type: 'string', jsonPath: '.spec.other' },
            ],
          },
        ],
      },
      'versions[0].printerColumns',
      /"Image" twice/,
    ],
    [
      'a scale path outside spec',
      {
        versions: [
          {
            name: 'v1',
            spec: Type.Object({}),
            subresources: {
              scale: { specReplicasPath: '.replicas', statusReplicasPath: '.status.replicas' },
            },
          },
        ],
      },
      'versions[0].subresources.scale.specReplicasPath',
      /\.spec\./,
    ],
  ];

  it.each(cases)('rejects %s, naming the field', (_name, patch, field, message) => {
    const error = thrown(() => defineCustomResource({ ...base, ...patch } as never));
    expect(CustomResourceDefinitionError.isInstance(error)).toBe(true);
    expect((error as CustomResourceDefinitionError).field).toBe(field);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).toMatch(/^custom resource "/);
  });

  it('rejects a schema Kubernetes cannot express, naming its path', () => {
    const error = thrown(() =>
      defineCustomResource({
        ...base,
        versions: [
          {
            name: 'v1',
            spec: Type.Object({
              ports: Type.Array(Type.Object({ pair: Type.Tuple([Type.String(), Type.Number()]) })),
            }),
          },
        ],
      }),
    );
    expect(StructuralSchemaError.isInstance(error)).toBe(true);
    expect((error as StructuralSchemaError).path).toBe('spec.ports[*].pair');
    expect((error as Error).message).toMatch(/tuples/);
  });
});
