import { ApiException, CustomObjectsApi } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../src/index.js';
import { startCluster, type TestCluster } from '../cluster.js';
import { widgetCrd } from './widget-crd.js';

// CEL validation rules (x-kubernetes-validations) as kube-apiserver 1.37 evaluates them: the
// expected texts below are what the real kube-apiserver answers (`pnpm test:binaries` runs this
// file against it unchanged).
let cluster: TestCluster;
let custom: CustomObjectsApi;
beforeAll(async () => {
  cluster = await startCluster({ crds: [widgetCrd] });
  custom = cluster.kubeConfig.makeApiClient(CustomObjectsApi);
});
afterAll(async () => {
  await cluster.stop();
});

const base = '/apis/cel.ops.dev/v1/namespaces/default/widgets';
const crds = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

function widget(name: string, spec: Record<string, unknown>) {
  return { apiVersion: 'cel.ops.dev/v1', kind: 'Widget', metadata: { name }, spec };
}

async function rejected(body: unknown, path = base, method = 'POST') {
  const response = await cluster.request(method, path, body);
  expect(response.status).toBe(422);
  expect(response.body).toMatchObject({ kind: 'Status', reason: 'Invalid', code: 422 });
  return response.body as { message: string; details: { causes: unknown[] } };
}

/**
 * A CRD whose spec has the fields `a` (integer, with `aRules`) and `s` (string) and the given
 * rules on spec.
 */
function gadgetCrd(rules: unknown[], aRules: unknown[] = []) {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'gadgets.cel.ops.dev' },
    spec: {
      group: 'cel.ops.dev',
      scope: 'Namespaced',
      names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget', listKind: 'GadgetList' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  type: 'object',
                  properties: {
                    a: { type: 'integer', 'x-kubernetes-validations': aRules },
                    s: { type: 'string' },
                  },
                  'x-kubernetes-validations': rules,
                },
              },
            },
          },
        },
      ],
    },
  };
}

const rulePath = 'spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0]';

describe('CEL validation rules on custom resources', () => {
  it('accepts an object every rule holds for', async () => {
    const created = await cluster.request(
      'POST',
      base,
      widget('w-ok', { id: 'a', size: 2, name: 'abc', tags: ['a'], ports: { http: 80 } }),
    );
    expect(created.status).toBe(201);
    expect(created.body.spec).toMatchObject({ minReplicas: 1, maxReplicas: 3, mode: 'standard' });
  });

  it('rejects with the message, on the object whose rule failed', async () => {
    const body = await rejected(widget('w-mm', { minReplicas: 5, maxReplicas: 2 }));
    expect(body.message).toBe(
      'Widget.cel.ops.dev "w-mm" is invalid: spec: Invalid value: minReplicas must not exceed maxReplicas',
    );
    expect(body.details.causes).toEqual([
      {
        reason: 'FieldValueInvalid',
        message: 'Invalid value: minReplicas must not exceed maxReplicas',
        field: 'spec',
      },
    ]);
  });

  it('honours reason and fieldPath', async () => {
    const body = await rejected(widget('w-lg', { mode: 'legacy' }));
    expect(body.details.causes).toEqual([
      {
        reason: 'FieldValueRequired',
        message: 'Required value: legacyConfig is required in legacy mode',
        field: 'spec.legacyConfig',
      },
    ]);
  });

  it('words messageExpression, the default message, scalar values and map keys as kube does', async () => {
    expect((await rejected(widget('w-nm', { name: 'ABC' }))).message).toBe(
      'Widget.cel.ops.dev "w-nm" is invalid: spec.name: Invalid value: "ABC": name ABC must be lowercase letters',
    );
    expect((await rejected(widget('w-tg', { tags: ['toolongtag'] }))).message).toBe(
      'Widget.cel.ops.dev "w-tg" is invalid: spec.tags: Invalid value: failed rule: self.all(t, t.size() <= 5)',
    );
    expect((await rejected(widget('w-pt', { ports: { http: 0 } }))).message).toBe(
      'Widget.cel.ops.dev "w-pt" is invalid: spec.ports[http]: Invalid value: 0: must be a port number',
    );
  });

  it('sees date-time and duration strings as timestamps and durations', async () => {
    const window = (end: string) => ({ start: '2024-01-01T00:00:00Z', end, grace: '1h' });
    const ok = await cluster.request(
      'POST',
      base,
      widget('w-win', { window: window('2024-01-01T02:00:00Z') }),
    );
    expect(ok.status).toBe(201);
    expect(
      (await rejected(widget('w-win2', { window: window('2024-01-01T00:30:00Z') }))).message,
    ).toBe(
      'Widget.cel.ops.dev "w-win2" is invalid: spec.window: Invalid value: the window must outlast its grace period',
    );
  });

  it('has the quantity library, and reports rules that fail to evaluate', async () => {
    expect((await cluster.request('POST', base, widget('w-q', { memory: '512Mi' }))).status).toBe(
      201,
    );
    expect((await rejected(widget('w-q2', { memory: '2Gi' }))).message).toBe(
      'Widget.cel.ops.dev "w-q2" is invalid: spec.memory: Invalid value: "2Gi": memory must be below 1Gi',
    );
    expect((await rejected(widget('w-q3', { memory: 'lots' }))).message).toBe(
      'Widget.cel.ops.dev "w-q3" is invalid: spec.memory: Invalid value: "string": quantities must match the regular expression \'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$\' evaluating rule: memory must be below 1Gi',
    );
  });

  it('evaluates rules on the root with apiVersion, kind and metadata.name in scope', async () => {
    expect((await rejected(widget('bad', {}))).message).toBe(
      'Widget.cel.ops.dev "bad" is invalid: <nil>: Invalid value: the name must start with w-',
    );
  });

  it('runs no rule when the schema already failed, and says so', async () => {
    const body = await rejected(widget('w-bl', { minReplicas: 'x', maxReplicas: 2 }));
    expect(body.message).toBe(
      'Widget.cel.ops.dev "w-bl" is invalid: [spec.minReplicas: Invalid value: "string": spec.minReplicas in body must be of type integer: "string", <nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation]',
    );
  });

  it('runs transition rules against the stored object on update', async () => {
    const current = (await cluster.request('GET', `${base}/w-ok`)).body;
    const changed = (spec: Record<string, unknown>) => ({
      ...current,
      spec: { ...current.spec, ...spec },
    });
    expect((await rejected(changed({ id: 'b' }), `${base}/w-ok`, 'PUT')).message).toBe(
      'Widget.cel.ops.dev "w-ok" is invalid: spec.id: Invalid value: "b": id is immutable',
    );
    expect((await rejected(changed({ size: 1 }), `${base}/w-ok`, 'PUT')).message).toBe(
      'Widget.cel.ops.dev "w-ok" is invalid: spec.size: Invalid value: 1: size may only grow',
    );
    const grown = await cluster.request('PUT', `${base}/w-ok`, changed({ size: 3 }));
    expect(grown.status).toBe(200);
    expect(grown.body.spec.size).toBe(3);
  });

  it('runs optionalOldSelf rules on create, with no old value', async () => {
    const created = await cluster.request('POST', base, widget('w-new', { size: 1 }));
    expect(created.status).toBe(201);
  });

  it('validates the status subresource', async () => {
    const current = (await cluster.request('GET', `${base}/w-ok`)).body;
    const bad = await rejected(
      { ...current, status: { phase: 'Gone' } },
      `${base}/w-ok/status`,
      'PUT',
    );
    expect(bad.details.causes).toEqual([
      {
        reason: 'FieldValueForbidden',
        message: 'Forbidden: phase must be Pending or Running',
        field: 'status.phase',
      },
    ]);
    const good = await cluster.request('PUT', `${base}/w-ok/status`, {
      ...current,
      status: { phase: 'Running' },
    });
    expect(good.status).toBe(200);
  });

  it('prints every failed rule through kubectl', async () => {
    await expect(
      cluster.kubectl(['apply', '-f', '-'], {
        input: JSON.stringify(widget('w-kc', { minReplicas: 5, maxReplicas: 2, name: 'Bad' })),
      }),
    ).rejects.toThrow(
      'The Widget "w-kc" is invalid: \n* spec: Invalid value: minReplicas must not exceed maxReplicas\n* spec.name: Invalid value: "Bad": name Bad must be lowercase letters',
    );
  });

  it('surfaces the 422 to @kubernetes/client-node as an ApiException with the Status', async () => {
    try {
      await custom.createNamespacedCustomObject({
        group: 'cel.ops.dev',
        version: 'v1',
        namespace: 'default',
        plural: 'widgets',
        body: widget('w-cn', { ports: { https: 70000 } }),
      });
      expect.unreachable('a failed rule must reject the create');
    } catch (error) {
      expect(error).toBeInstanceOf(ApiException);
      const failure = error as ApiException<string>;
      expect(failure.code).toBe(422);
      expect(JSON.parse(failure.body).message).toBe(
        'Widget.cel.ops.dev "w-cn" is invalid: spec.ports[https]: Invalid value: 70000: must be a port number',
      );
    }
  });
});

describe('CEL validation rules when a CRD is written', () => {
  it("rejects a rule naming an undeclared field, with cel-go's compile error", async () => {
    const body = await rejected(gadgetCrd([{ rule: 'self.nope > 1' }]), crds);
    expect(body.message).toBe(
      `CustomResourceDefinition.apiextensions.k8s.io "gadgets.cel.ops.dev" is invalid: ${rulePath}.rule: Invalid value: {"Rule":"self.nope \\u003e 1","Message":"","MessageExpression":"","Reason":null,"FieldPath":"","OptionalOldSelf":null}: compilation failed: ERROR: <input>:1:5: undefined field 'nope'\n | self.nope > 1\n | ....^`,
    );
  });

  it('rejects type errors, unknown functions and rules that are not bool', async () => {
    expect((await rejected(gadgetCrd([{ rule: 'self.a == "x"' }]), crds)).message).toContain(
      "compilation failed: ERROR: <input>:1:8: found no matching overload for '_==_' applied to '(int, string)'\n | self.a == \"x\"\n | .......^",
    );
    expect((await rejected(gadgetCrd([{ rule: 'self.s.foo()' }]), crds)).message).toContain(
      "compilation failed: ERROR: <input>:1:11: undeclared reference to 'foo' (in container '')",
    );
    expect((await rejected(gadgetCrd([{ rule: 'has(self.zzz)' }]), crds)).message).toContain(
      "compilation failed: ERROR: <input>:1:4: undefined field 'zzz'\n | has(self.zzz)\n | ...^",
    );
    expect((await rejected(gadgetCrd([{ rule: 'self.a + 1' }]), crds)).message).toContain(
      `${rulePath}.rule: Invalid value: {"Rule":"self.a + 1","Message":"","MessageExpression":"","Reason":null,"FieldPath":"","OptionalOldSelf":null}: cel expression must evaluate to a bool`,
    );
    expect((await rejected(gadgetCrd([{ rule: 'self.a >' }]), crds)).message).toContain(
      `${rulePath}.rule: Invalid value: {"Rule":"self.a \\u003e","Message":"","MessageExpression":"","Reason":null,"FieldPath":"","OptionalOldSelf":null}: compilation failed: ERROR: <input>:1:9: Syntax error: `,
    );
  });

  it('checks messageExpression, fieldPath, reason, optionalOldSelf and multi-line rules', async () => {
    const cases: [unknown, string][] = [
      [
        { rule: 'self.a > 1', messageExpression: 'self.a' },
        `${rulePath}.messageExpression: Invalid value: {"Rule":"self.a \\u003e 1","Message":"","MessageExpression":"self.a","Reason":null,"FieldPath":"","OptionalOldSelf":null}: messageExpression must evaluate to a string`,
      ],
      [
        { rule: 'self.a > 1', fieldPath: '.nope' },
        `${rulePath}.fieldPath: Invalid value: ".nope": must be a valid path`,
      ],
      [
        { rule: 'self.a > 1', reason: 'Nope' },
        `${rulePath}.reason: Unsupported value: "Nope": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"`,
      ],
      [
        { rule: 'self.a > 1', optionalOldSelf: true },
        `${rulePath}.optionalOldSelf: Invalid value: true: may not be set if oldSelf is not used in rule`,
      ],
      [
        { rule: 'self.a > 1', message: 'a\nb' },
        `${rulePath}.message: Invalid value: "a\\nb": must not contain line breaks`,
      ],
      [
        { rule: 'self.a > 1', message: '  ' },
        `${rulePath}.message: Invalid value: "  ": must be non-empty if specified`,
      ],
      [
        { rule: 'true', messageExpression: 'self.s.nope' },
        `${rulePath}.messageExpression: Invalid value: {"Rule":"true","Message":"","MessageExpression":"self.s.nope","Reason":null,"FieldPath":"","OptionalOldSelf":null}: messageExpression compilation failed: ERROR: <input>:1:7: type 'string' does not support field selection\n | self.s.nope\n | ......^`,
      ],
      [
        { rule: 'self.a > 1\n && true' },
        `${rulePath}.message: Required value: message must be specified if rule contains line breaks`,
      ],
    ];
    for (const [rule, message] of cases) {
      expect((await rejected(gadgetCrd([rule]), crds)).message).toBe(
        `CustomResourceDefinition.apiextensions.k8s.io "gadgets.cel.ops.dev" is invalid: ${message}`,
      );
    }
  });

  it('refuses oldSelf under the items of a list that is not a map list', async () => {
    const crd = gadgetCrd([]);
    const spec = crd.spec.versions[0]?.schema.openAPIV3Schema.properties.spec;
    const listed = {
      ...crd,
      spec: {
        ...crd.spec,
        versions: [
          {
            ...crd.spec.versions[0],
            schema: {
              openAPIV3Schema: {
                type: 'object',
                properties: {
                  spec: {
                    ...spec,
                    properties: {
                      l: {
                        type: 'array',
                        maxItems: 10,
                        items: {
                          type: 'string',
                          maxLength: 10,
                          'x-kubernetes-validations': [{ rule: 'self == oldSelf' }],
                        },
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
    expect((await rejected(listed, crds)).message).toBe(
      'CustomResourceDefinition.apiextensions.k8s.io "gadgets.cel.ops.dev" is invalid: spec.validation.openAPIV3Schema.properties[spec].properties[l].items.x-kubernetes-validations[0].rule: Invalid value: "self == oldSelf": oldSelf cannot be used on the uncorrelatable portion of the schema within spec.validation.openAPIV3Schema.properties[spec].properties[l]',
    );
  });

  it('prints the compile error through kubectl', async () => {
    await expect(
      cluster.kubectl(['apply', '-f', '-'], {
        input: JSON.stringify(gadgetCrd([{ rule: 'self.nope > 1' }])),
      }),
    ).rejects.toThrow(
      `${rulePath}.rule: Invalid value: {"Rule":"self.nope \\u003e 1","Message":"","MessageExpression":"","Reason":null,"FieldPath":"","OptionalOldSelf":null}: compilation failed: ERROR: <input>:1:5: undefined field 'nope'`,
    );
  });
});

describe('CEL validation ratcheting', () => {
  const gadgets = '/apis/cel.ops.dev/v1/namespaces/default/gadgets';
  const gadget = (spec: Record<string, unknown>) => ({
    apiVersion: 'cel.ops.dev/v1',
    kind: 'Gadget',
    metadata: { name: 'g1' },
    spec,
  });

  it('only warns about a rule an unchanged value breaks, after the rule was added', async () => {
    const created = await cluster.request('POST', crds, gadgetCrd([]));
    expect(created.status).toBe(201);
    await eventually(async () => {
      expect((await cluster.request('POST', gadgets, gadget({ a: 20, s: 'x' }))).status).toBe(201);
    });
    const crd = (await cluster.request('GET', `${crds}/gadgets.cel.ops.dev`)).body;
    const ruled = gadgetCrd([], [{ rule: 'self < 10' }]);
    const updated = await cluster.request('PUT', `${crds}/gadgets.cel.ops.dev`, {
      ...ruled,
      metadata: crd.metadata,
    });
    expect(updated.status).toBe(200);
    await eventually(async () => {
      const probe = await cluster.request('POST', gadgets, {
        ...gadget({ a: 30 }),
        metadata: { name: 'probe' },
      });
      expect(probe.status).toBe(422);
    });
    const current = (await cluster.request('GET', `${gadgets}/g1`)).body;
    const kept = await cluster.request('PUT', `${gadgets}/g1`, {
      ...current,
      spec: { ...current.spec, s: 'y' },
    });
    expect(kept.status).toBe(200);
    expect(kept.headers.get('warning')).toBe(
      '299 - "spec.a: Invalid value: 20: failed rule: self < 10"',
    );
    const changed = await cluster.request('PUT', `${gadgets}/g1`, {
      ...kept.body,
      spec: { ...kept.body.spec, a: 21 },
    });
    expect(changed.status).toBe(422);
    expect(changed.body.message).toBe(
      'Gadget.cel.ops.dev "g1" is invalid: spec.a: Invalid value: 21: failed rule: self < 10',
    );
  });
});
