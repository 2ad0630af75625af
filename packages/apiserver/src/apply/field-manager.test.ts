import { describe, expect, it } from 'vitest';
import { StatusError } from '../api/status-error.js';
import {
  applyConfiguration,
  type FieldManagerScope,
  updateManagedFields,
} from './field-manager.js';
import { fieldTypeFromStrategicSchema } from './field-type.js';
import type { ManagerEntry } from './managed-fields.js';

const scope = (now: string, subresource = ''): FieldManagerScope => ({
  type: fieldTypeFromStrategicSchema(undefined),
  apiVersion: 'v1',
  subresource,
  statusSubresource: true,
  now,
});
const cm = (data: Record<string, string>, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'c', namespace: 'default', uid: 'u', resourceVersion: '1' },
  data,
  ...extra,
});
const fields = (entries: ManagerEntry[]) =>
  Object.fromEntries(
    entries.map((entry) => [`${entry.manager}/${entry.operation}`, entry.fields.toFieldsV1()]),
  );

describe('updateManagedFields', () => {
  it('gives the creator what it set, without apiVersion, kind or server-set metadata', () => {
    const entries = updateManagedFields({}, cm({ a: '1' }), [], 'kubectl-create', scope('t1'));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      manager: 'kubectl-create',
      operation: 'Update',
      time: 't1',
    });
    expect(fields(entries)).toEqual({
      'kubectl-create/Update': { 'f:data': { '.': {}, 'f:a': {} } },
    });
  });

  it('moves changed fields to the writer and drops removed ones; a no-op keeps the time', () => {
    const created = updateManagedFields({}, cm({ a: '1', b: '2' }), [], 'one', scope('t1'));
    const updated = updateManagedFields(
      cm({ a: '1', b: '2' }),
      cm({ a: '9' }),
      created,
      'two',
      scope('t2'),
    );
    expect(fields(updated)).toEqual({
      'one/Update': { 'f:data': {} },
      'two/Update': { 'f:data': { 'f:a': {} } },
    });
    const again = updateManagedFields(cm({ a: '9' }), cm({ a: '9' }), updated, 'two', scope('t3'));
    expect(again.find((entry) => entry.manager === 'two')?.time).toBe('t2');
  });

  it('records status writes under the status subresource, status only', () => {
    const entries = updateManagedFields(
      cm({}, { status: {} }),
      cm({ x: '1' }, { status: { phase: 'Ready' } }),
      [],
      'kubelet',
      scope('t1', 'status'),
    );
    expect(entries[0]).toMatchObject({ subresource: 'status' });
    expect(fields(entries)).toEqual({ 'kubelet/Update': { 'f:status': { 'f:phase': {} } } });
  });
  it('records scale writes as the scale subresource, without a time as kube does', () => {
    const deployment = (replicas: number) => cm({}, { spec: { replicas } });
    const created = updateManagedFields({}, deployment(1), [], 'maker', scope('t1'));
    const scaled = updateManagedFields(
      deployment(1),
      deployment(3),
      created,
      'hpa',
      scope('t2', 'scale'),
    );
    expect(scaled.find((entry) => entry.subresource === 'scale')).toEqual({
      manager: 'hpa',
      operation: 'Update',
      apiVersion: 'v1',
      subresource: 'scale',
      fields: expect.anything(),
    });
    expect(fields(scaled)).toMatchObject({ 'hpa/Update': { 'f:spec': { 'f:replicas': {} } } });
  });
});

describe('applyConfiguration', () => {
  const created = updateManagedFields({}, cm({ a: '1' }), [], 'kubectl-create', scope('t1'));

  it("is a 409 naming the manager and field when it would change another manager's field", () => {
    let error: unknown;
    try {
      applyConfiguration(
        cm({ a: '1' }),
        cm({ a: '2', b: '3' }),
        created,
        'other',
        false,
        scope('t2'),
      );
    } catch (caught) {
      error = caught;
    }
    expect(StatusError.isInstance(error)).toBe(true);
    expect((error as StatusError).toStatus()).toMatchObject({
      code: 409,
      reason: 'Conflict',
      message: 'Apply failed with 1 conflict: conflict with "kubectl-create" using v1: .data.a',
      details: {
        causes: [
          {
            reason: 'FieldManagerConflict',
            message: 'conflict with "kubectl-create" using v1',
            field: '.data.a',
          },
        ],
      },
    });
  });

  it('co-owns fields set to the same value, and forcing takes the others', () => {
    const shared = applyConfiguration(
      cm({ a: '1' }),
      cm({ a: '1', b: '3' }),
      created,
      'other',
      false,
      scope('t2'),
    );
    expect(fields(shared.entries)).toEqual({
      'other/Apply': { 'f:data': { 'f:a': {}, 'f:b': {} } },
      'kubectl-create/Update': { 'f:data': { '.': {}, 'f:a': {} } },
    });
    const forced = applyConfiguration(
      shared.object,
      cm({ a: '2', b: '3' }),
      shared.entries,
      'other',
      true,
      scope('t3'),
    );
    expect(forced.object.data).toEqual({ a: '2', b: '3' });
    expect(fields(forced.entries)['kubectl-create/Update']).toEqual({ 'f:data': {} });
  });

  it('removes fields the applier stops applying unless someone else owns them', () => {
    const first = applyConfiguration(
      undefined,
      cm({ a: '1', b: '2' }),
      [],
      'me',
      false,
      scope('t1'),
    );
    expect(first.entries[0]?.time).toBe('t1');
    const second = applyConfiguration(
      first.object,
      cm({ a: '1' }),
      first.entries,
      'me',
      false,
      scope('t2'),
    );
    expect(second.object.data).toEqual({ a: '1' });
    const noop = applyConfiguration(
      second.object,
      cm({ a: '1' }),
      second.entries,
      'me',
      false,
      scope('t3'),
    );
    expect(noop.entries[0]?.time).toBe('t2');
  });

  it('lists several conflicts by manager', () => {
    const two = updateManagedFields(
      cm({ a: '1' }),
      cm({ a: '1', b: '1' }),
      created,
      'second',
      scope('t2'),
    );
    expect(() =>
      applyConfiguration(
        cm({ a: '1', b: '1' }),
        cm({ a: '2', b: '2' }),
        two,
        'me',
        false,
        scope('t3'),
      ),
    ).toThrow(
      'Apply failed with 2 conflicts: conflicts with "kubectl-create" using v1:\n- .data.a\nconflicts with "second" using v1:\n- .data.b',
    );
  });
});
