import type { KubernetesObject } from '@ops/api';
import { describe, expect, it } from 'vitest';
import { builtinResources } from '../../registry/builtin-resources.js';
import { toTable } from './table.js';

const typeOf = (plural: string) => {
  const type = builtinResources().find((t) => t.plural === plural);
  if (type === undefined) throw new Error(`no ${plural}`);
  return type;
};
/** The cells of one object's row, by column name. */
function row(plural: string, object: Record<string, unknown>): Record<string, unknown> {
  const table = toTable(typeOf(plural), [object as KubernetesObject], '1') as any;
  const names: string[] = table.columnDefinitions.map((c: any) => c.name);
  return Object.fromEntries(names.map((name, i) => [name, table.rows[0].cells[i]]));
}
const terminated = (exitCode: number, reason?: string) => ({
  state: { terminated: { exitCode, ...(reason ? { reason } : {}) } },
  ready: false,
});
const pod = (status: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  metadata: { name: 'p', creationTimestamp: new Date().toISOString(), ...extra },
  spec: {
    initContainers: [{ name: 'init', image: 'busybox' }],
    containers: [
      { name: 'a', image: 'busybox' },
      { name: 'b', image: 'busybox' },
    ],
  },
  status,
});

describe('the Pod STATUS column (kube printPod)', () => {
  it('shows how the containers ended, last container first', () => {
    const completed = [terminated(0, 'Completed'), terminated(0, 'Completed')];
    expect(row('pods', pod({ phase: 'Succeeded', containerStatuses: completed })).Status).toBe(
      'Completed',
    );
    const failed = [terminated(2, 'Error'), terminated(0, 'Completed')];
    expect(row('pods', pod({ phase: 'Failed', containerStatuses: failed })).Status).toBe('Error');
    expect(row('pods', pod({ phase: 'Failed', containerStatuses: [terminated(137)] })).Status).toBe(
      'ExitCode:137',
    );
    const mixed = [{ state: { running: {} }, ready: true }, terminated(0, 'Completed')];
    expect(
      row(
        'pods',
        pod({
          phase: 'Running',
          containerStatuses: mixed,
          conditions: [{ type: 'Ready', status: 'True' }],
        }),
      ),
    ).toMatchObject({ Status: 'Running', Ready: '1/2' });
  });

  it('shows init containers that have not completed', () => {
    expect(
      row('pods', pod({ phase: 'Pending', initContainerStatuses: [{ state: {} }] })).Status,
    ).toBe('Init:0/1');
    expect(
      row('pods', pod({ phase: 'Pending', initContainerStatuses: [terminated(1, 'Error')] }))
        .Status,
    ).toBe('Init:Error');
  });

  it('shows Terminating only for a Pod being deleted that has not ended', () => {
    const deleting = { deletionTimestamp: new Date().toISOString() };
    expect(row('pods', pod({ phase: 'Running' }, deleting)).Status).toBe('Terminating');
    expect(
      row(
        'pods',
        pod({ phase: 'Succeeded', containerStatuses: [terminated(0, 'Completed')] }, deleting),
      ).Status,
    ).toBe('Completed');
  });
});

describe('the Job columns (kube printJob)', () => {
  const job = (spec: Record<string, unknown>, status: Record<string, unknown>) => ({
    metadata: { name: 'j', creationTimestamp: new Date(Date.now() - 90_000).toISOString() },
    spec: {
      selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': 'u' } },
      template: { spec: { containers: [{ name: 'work', image: 'busybox:1.36' }] } },
      ...spec,
    },
    status,
  });
  const at = (secondsAgo: number) => new Date(Date.now() - secondsAgo * 1000).toISOString();

  it('prints STATUS, COMPLETIONS, DURATION, AGE and the wide columns', () => {
    const complete = job(
      { completions: 3 },
      {
        succeeded: 3,
        startTime: at(80),
        completionTime: at(68),
        conditions: [{ type: 'Complete', status: 'True' }],
      },
    );
    expect(row('jobs', complete)).toEqual({
      Name: 'j',
      Status: 'Complete',
      Completions: '3/3',
      Duration: '12s',
      Age: '90s',
      Containers: 'work',
      Images: 'busybox:1.36',
      Selector: 'batch.kubernetes.io/controller-uid=u',
    });
  });

  it('reads COMPLETIONS without completions, and STATUS while running or finishing', () => {
    expect(row('jobs', job({ parallelism: 2 }, {})).Completions).toBe('0/1 of 2');
    expect(row('jobs', job({ parallelism: 1 }, { succeeded: 1 })).Completions).toBe('1/1');
    expect(row('jobs', job({}, { startTime: at(30) }))).toMatchObject({
      Status: 'Running',
      Duration: '30s',
    });
    expect(row('jobs', job({}, {})).Duration).toBe('');
    const failing = { conditions: [{ type: 'FailureTarget', status: 'True' }] };
    expect(row('jobs', job({}, failing)).Status).toBe('FailureTarget');
    const failed = {
      conditions: [
        { type: 'FailureTarget', status: 'True' },
        { type: 'Failed', status: 'True' },
      ],
    };
    expect(row('jobs', job({}, failed)).Status).toBe('Failed');
  });
});
