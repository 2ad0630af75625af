/**
 * Fault exploration on the real control plane (pnpm test:binaries: etcd + kube-apiserver):
 * the planted-bug catalogue's bug classes found through a FaultProxy fronting kube-apiserver,
 * and correct twins passing, all on one control plane for the file, each run in a namespace
 * of its own. Kept to about a minute per Kubernetes release: quick mode stops at the first
 * failure, so a bug quick mode finds early costs a few runs; twins run six schedules (one of
 * each kind quick mode tries first); the rest runs one chosen schedule.
 */
import { Client, type Manager } from '@ops/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ExplorationReport,
  exploreQuick,
  referenceRun,
  summarize,
} from '../../src/explore/explorer.js';
import { runScenario, type Scenario } from '../../src/explore/run.js';
import { RunPlane } from '../../src/explore/run-plane.js';
import { parseScheduleId, quickSchedules, scheduleId } from '../../src/explore/schedule.js';
import { kubeRequest } from '../../src/index.js';
import { duplicateChildBuggy, duplicateChildCorrect } from '../explore/planted/duplicate-child.js';
import { errorHandledCorrect, errorSwallowedBuggy } from '../explore/planted/error-swallowed.js';
import { ignoredWebhookCorrect } from '../explore/planted/ignored-webhook.js';
import { staleDeletionBuggy, staleDeletionCorrect } from '../explore/planted/stale-deletion.js';
import { stuckDeletionBuggy } from '../explore/planted/stuck-deletion.js';
import { widget, widgetCrd, widgets } from '../explore/planted/widget.js';

let plane: RunPlane;
beforeAll(async () => {
  // The planted scenarios ask for the local plane; the file's plane is the real one.
  plane = await RunPlane.start(
    { namespace: 'explore', crds: [widgetCrd] },
    { controlPlane: 'binaries' },
  );
}, 240_000);
afterAll(async () => {
  await plane?.stop();
});

const explore = (scenario: Scenario<Manager>, limit: number) =>
  exploreQuick(scenario, { plane, limit });

function expectFound(report: ExplorationReport, kind: RegExp, says: string): void {
  expect(report.plane).toBe('binaries');
  expect(report.failures, summarize(report)).toHaveLength(1);
  const [failure] = report.failures;
  expect(failure?.id, failure?.message).toMatch(kind);
  expect(failure?.message).toContain(says);
}

function expectPassed(report: ExplorationReport, schedules: number): void {
  expect(report.failures.map((failure) => failure.message)).toEqual([]);
  expect(report.schedules).toHaveLength(schedules);
}

describe('on one real control plane, a namespace per run', { timeout: 120_000 }, () => {
  it('leaves nothing of a run for the next: its namespace and objects are gone, finalizers and all', async () => {
    const run = await plane.openRun();
    expect(run.namespace).toMatch(/^explore-\d+$/);
    expect(run.reportedNamespace).toBe('explore');
    const client = new Client({ kubeConfig: run.env.kubeConfig });
    try {
      const held = widget('held', { value: 'v' });
      held.metadata = {
        ...held.metadata,
        namespace: run.namespace,
        finalizers: ['explore.ops.dev/gone-operator'],
      };
      await client.create(held);
      await run.close();
      // What the next run's operator lists cluster-wide: nothing of the run before.
      expect((await client.list(widgets)).items).toEqual([]);
      const namespace = await kubeRequest(
        run.env.kubeConfig,
        'GET',
        `/api/v1/namespaces/${run.namespace}`,
      );
      expect(namespace.status).toBe(404);
    } finally {
      client.close();
    }
  });
});

describe('the explorer finds planted bugs through kube-apiserver, and passes their twins', {
  timeout: 180_000,
}, () => {
  it('a child created twice after a restart between its create and the status write', async () => {
    expectFound(
      await explore(duplicateChildBuggy, 30),
      /:crash@1$/,
      '2 object(s) where the reference run left 1 (duplicated or leaked)',
    );
    expectPassed(await explore(duplicateChildCorrect, 6), 6);
  });

  it('an API error on a write swallowed, leaving the child missing', async () => {
    expectFound(
      await explore(errorSwallowedBuggy, 30),
      /:write-error@1=(500|429)$/,
      'v1/ConfigMap: 0 object(s) where the reference run left 1 (missing)',
    );
  });

  it('a delete that never completes after a crash before the finalizer removal', async () => {
    const found = await explore(stuckDeletionBuggy, 30);
    // Any restart between the cleanup and the finalizer removal leaves it stuck: a crash after
    // a write, after a request (whose count on kube-apiserver depends on the watches' timing,
    // so it lands there or not), or a restart against a stale cache.
    expectFound(
      found,
      /:(crash(-at-request)?@\d+|stale-restart@\d+\+\d+~configmaps)$/,
      'explore.ops.dev/v1/Widget: 1 object(s) where the reference run left 0',
    );
    // The operator's writes name the run's own namespace.
    expect(found.failures[0]?.message).toMatch(
      /#\d+ delete configmaps explore-\d+\/app-record -> 200/,
    );
  });

  it('a decision on a stale read after a restart (kube-apiserver resourceVersions) that deletes a live child', async () => {
    // Quick mode's stale restart of the Widgets' cache, the schedule that finds this bug on
    // the local plane, run alone: it proves the proxy's stale sync against kube-apiserver.
    const reference = await referenceRun(staleDeletionBuggy, {}, plane);
    const schedule = quickSchedules(reference.shape, { seed: 1, limit: 30 }).find((candidate) =>
      /:stale-restart@\d+\+\d+~widgets$/.test(scheduleId(candidate)),
    );
    expect(schedule).toBeDefined();
    if (schedule === undefined) return;
    const buggy = await runScenario(staleDeletionBuggy, schedule, reference.record, {}, plane);
    expect(buggy.violations.join('\n')).toContain(
      'deleted configmaps app-data, which the reference run never deleted (a live child)',
    );
    const twin = await referenceRun(staleDeletionCorrect, {}, plane);
    const passed = await runScenario(staleDeletionCorrect, schedule, twin.record, {}, plane);
    expect(passed.violations).toEqual([]);
    expect(passed.fired.map((p) => p.kind)).toEqual(['stale-restart']);
  });

  it("restarts kube-apiserver mid-run (binaries), and a correct operator's outcome still equals the reference", async () => {
    const reference = await referenceRun(errorHandledCorrect, {}, plane);
    expect(reference.shape.excludedKinds).toEqual([]);
    const record = await runScenario(
      errorHandledCorrect,
      parseScheduleId('1:apiserver-restart@1'),
      reference.record,
      {},
      plane,
    );
    expect(record.violations).toEqual([]);
    expect(record.fired.map((p) => p.kind)).toEqual(['apiserver-restart']);
  });

  it('a webhook down or slow while a Widget is admitted: with failurePolicy Fail the twin passes, each run waiting until kube-apiserver calls its configuration', async () => {
    const report = await exploreQuick(ignoredWebhookCorrect, {
      plane,
      limit: 2,
      kinds: ['webhook-down', 'webhook-slow'],
    });
    expectPassed(report, 2);
    expect(report.coverage).toEqual({ 'webhook-down': 1, 'webhook-slow': 1 });
    // Each run removed its configuration: the next run's Widgets meet no webhook nobody serves.
    const run = await plane.openRun();
    try {
      const stored = await kubeRequest(
        run.env.kubeConfig,
        'GET',
        '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations/widget-defaults',
      );
      expect(stored.status).toBe(404);
    } finally {
      await run.close();
    }
  });
});
