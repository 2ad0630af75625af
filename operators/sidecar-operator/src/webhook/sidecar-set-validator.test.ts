import type { AdmissionRequest } from '@ops/core/webhook';
import { describe, expect, it } from 'vitest';
import type { SidecarSet } from '../api/v1alpha1/sidecar-set.js';
import { invalidMessage, sidecarSetProblems, validateSidecarSet } from './sidecar-set-validator.js';

const withSpec = (spec: Record<string, unknown>) =>
  ({ metadata: { name: 's' }, spec }) as unknown as SidecarSet;

describe('sidecarSetProblems', () => {
  it('accepts the sample', () => {
    expect(
      sidecarSetProblems(
        withSpec({ selector: { matchLabels: { app: 'web' } }, containers: [{ name: 'a' }] }),
      ),
    ).toEqual([]);
  });

  it('denies a missing selector and an empty one with the exact texts, on spec.selector', () => {
    expect(sidecarSetProblems(withSpec({ containers: [] }))).toEqual([
      {
        field: 'spec.selector',
        type: 'FieldValueRequired',
        message: 'Required value: no selector defined for sidecarset',
      },
    ]);
    for (const selector of [{}, { matchLabels: {} }, { matchLabels: {}, matchExpressions: [] }])
      expect(sidecarSetProblems(withSpec({ selector }))).toEqual([
        {
          field: 'spec.selector',
          type: 'FieldValueInvalid',
          message: `Invalid value: ${JSON.stringify(selector)}: empty selector is not valid for sidecarset.`,
        },
      ]);
  });

  it('denies a selector Kubernetes would refuse, and duplicate container names', () => {
    const [invalid] = sidecarSetProblems(
      withSpec({ selector: { matchExpressions: [{ key: 'app', operator: 'In', values: [] }] } }),
    );
    expect(invalid?.field).toBe('spec.selector');
    expect(invalid?.message).toMatch(/^Invalid value: .*app/);
    expect(
      sidecarSetProblems(
        withSpec({
          selector: { matchLabels: { a: 'b' } },
          containers: [{ name: 'x' }, { name: 'x' }],
        }),
      ),
    ).toEqual([
      {
        field: 'spec.containers[1].name',
        type: 'FieldValueDuplicate',
        message: 'Duplicate value: "x"',
      },
    ]);
  });
});

describe('validateSidecarSet', () => {
  const request = (object: unknown, operation: AdmissionRequest['operation'] = 'CREATE') =>
    ({
      uid: '1',
      kind: { group: 'apps.chinalhr.github.io', version: 'v1alpha1', kind: 'SidecarSet' },
      resource: { group: 'apps.chinalhr.github.io', version: 'v1alpha1', resource: 'sidecarsets' },
      name: 's',
      operation,
      userInfo: {},
      object,
    }) as AdmissionRequest;

  it('denies as Invalid with the message of apierrors.NewInvalid and one cause per problem', async () => {
    const result = await validateSidecarSet(request(withSpec({ containers: [] })));
    expect(result).toEqual({
      allowed: false,
      status: {
        status: 'Failure',
        code: 422,
        reason: 'Invalid',
        message:
          'SidecarSet.apps.chinalhr.github.io "s" is invalid: spec.selector: Required value: no selector defined for sidecarset',
        details: {
          name: 's',
          group: 'apps.chinalhr.github.io',
          kind: 'SidecarSet',
          causes: [
            {
              reason: 'FieldValueRequired',
              message: 'Required value: no selector defined for sidecarset',
              field: 'spec.selector',
            },
          ],
        },
      },
    });
  });

  it('allows a valid SidecarSet and DELETE, and lists several problems in brackets', async () => {
    expect(
      (await validateSidecarSet(request(withSpec({ selector: { matchLabels: { a: 'b' } } }))))
        .allowed,
    ).toBe(true);
    expect((await validateSidecarSet(request(undefined, 'DELETE'))).allowed).toBe(true);
    expect(
      invalidMessage('s', [
        { field: 'a', type: 'FieldValueInvalid', message: 'x' },
        { field: 'b', type: 'FieldValueInvalid', message: 'y' },
      ]),
    ).toBe('SidecarSet.apps.chinalhr.github.io "s" is invalid: [a: x, b: y]');
  });
});
