import { register as globalRegistry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../clock/fake-clock.js';
import { MetricsError } from '../errors/metrics-error.js';
import { LowPriority } from '../queue/controller-queue.js';
import { PriorityQueue } from '../queue/priority-queue.js';
import { WorkQueue } from '../queue/work-queue.js';
import { reconcileTimeBuckets } from './controller-metrics.js';
import { MetricsRegistry } from './metrics-registry.js';
import { webhookLatencyBuckets } from './webhook-metrics.js';
import { maxDepthPriorities, priorityCardinalityExceeded } from './workqueue-metrics-provider.js';

/** The sample lines of `text` for `metric` (no HELP/TYPE), e.g. `name{labels} value`. */
function samples(text: string, metric: string): string[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${metric}{`) || line.startsWith(`${metric} `));
}

describe('MetricsRegistry controller metrics', () => {
  it('initialises every series of a controller to zero, with controller-runtime names and help', async () => {
    const metrics = new MetricsRegistry();
    metrics.controller('deployment', { maxConcurrentReconciles: 3 });
    const text = await metrics.metrics();
    expect(samples(text, 'controller_runtime_reconcile_total').sort()).toEqual([
      'controller_runtime_reconcile_total{controller="deployment",result="error"} 0',
      'controller_runtime_reconcile_total{controller="deployment",result="requeue"} 0',
      'controller_runtime_reconcile_total{controller="deployment",result="requeue_after"} 0',
      'controller_runtime_reconcile_total{controller="deployment",result="success"} 0',
    ]);
    expect(text).toContain(
      '# HELP controller_runtime_reconcile_total Total number of reconciliations per controller\n# TYPE controller_runtime_reconcile_total counter',
    );
    expect(text).toContain('controller_runtime_reconcile_errors_total{controller="deployment"} 0');
    expect(text).toContain(
      'controller_runtime_terminal_reconcile_errors_total{controller="deployment"} 0',
    );
    expect(text).toContain('controller_runtime_reconcile_panics_total{controller="deployment"} 0');
    expect(text).toContain(
      'controller_runtime_reconcile_timeouts_total{controller="deployment"} 0',
    );
    expect(text).toContain(
      'controller_runtime_max_concurrent_reconciles{controller="deployment"} 3',
    );
    expect(text).toContain('controller_runtime_active_workers{controller="deployment"} 0');
    expect(text).toContain('# TYPE controller_runtime_reconcile_time_seconds histogram');
    expect(text).toContain(
      'controller_runtime_reconcile_time_seconds_count{controller="deployment"} 0',
    );
  });

  it('records reconcile outcomes as controller-runtime does', async () => {
    const metrics = new MetricsRegistry();
    const controller = metrics.controller('app');
    expect(metrics.controller('app', { maxConcurrentReconciles: 2 })).toBe(controller);
    controller.incActiveWorkers();
    controller.incActiveWorkers();
    controller.decActiveWorkers();
    controller.observeReconcile({ result: 'success', durationSeconds: 0.02 });
    controller.observeReconcile({ result: 'success', durationSeconds: 0.3 });
    controller.observeReconcile({ result: 'requeue_after', durationSeconds: 1.1 });
    controller.observeReconcile({ result: 'requeue', durationSeconds: 70 });
    controller.observeReconcile({ result: 'error', durationSeconds: 0.001 });
    controller.observeReconcile({ result: 'error', durationSeconds: 2, terminal: true });
    controller.observeReconcile({ result: 'error', durationSeconds: 2, panic: true });
    controller.observeReconcile({ result: 'error', durationSeconds: 5, timedOut: true });
    const text = await metrics.metrics();
    expect(text).toContain(
      'controller_runtime_reconcile_total{controller="app",result="success"} 2',
    );
    expect(text).toContain(
      'controller_runtime_reconcile_total{controller="app",result="requeue_after"} 1',
    );
    expect(text).toContain(
      'controller_runtime_reconcile_total{controller="app",result="requeue"} 1',
    );
    expect(text).toContain('controller_runtime_reconcile_total{controller="app",result="error"} 4');
    expect(text).toContain('controller_runtime_reconcile_errors_total{controller="app"} 4');
    expect(text).toContain('controller_runtime_reconcile_timeouts_total{controller="app"} 1');
    expect(text).toContain(
      'controller_runtime_terminal_reconcile_errors_total{controller="app"} 1',
    );
    expect(text).toContain('controller_runtime_reconcile_panics_total{controller="app"} 1');
    expect(text).toContain('controller_runtime_active_workers{controller="app"} 1');
    expect(text).toContain('controller_runtime_max_concurrent_reconciles{controller="app"} 2');
    expect(text).toContain('controller_runtime_reconcile_time_seconds_count{controller="app"} 8');
    expect(text).toContain(
      'controller_runtime_reconcile_time_seconds_bucket{le="0.025",controller="app"} 2',
    );
    expect(text).toContain(
      'controller_runtime_reconcile_time_seconds_bucket{le="60",controller="app"} 7',
    );
    expect(text).toContain(
      'controller_runtime_reconcile_time_seconds_bucket{le="+Inf",controller="app"} 8',
    );
    const buckets = samples(text, 'controller_runtime_reconcile_time_seconds_bucket');
    expect(buckets).toHaveLength(reconcileTimeBuckets.length + 1);
  });

  it('keeps registries apart and leaves the global registry empty', async () => {
    const a = new MetricsRegistry();
    const b = new MetricsRegistry();
    a.controller('only-in-a');
    expect(await b.metrics()).not.toContain('only-in-a');
    expect(globalRegistry.getMetricsAsArray()).toEqual([]);
    expect(a.contentType).toBe('text/plain; version=0.0.4; charset=utf-8');
  });
});

describe('MetricsRegistry webhook metrics', () => {
  it('exports none until a webhook path is given, then controller-runtime names, help, labels and zeroed series', async () => {
    const metrics = new MetricsRegistry();
    expect(await metrics.metrics()).not.toContain('controller_runtime_webhook');
    const validate = metrics.webhook('/validate-apps-v1-deployment');
    expect(validate.webhook).toBe('/validate-apps-v1-deployment');
    expect(metrics.webhook('/validate-apps-v1-deployment')).toBe(validate);
    const text = await metrics.metrics();
    expect(text).toContain(
      '# HELP controller_runtime_webhook_latency_seconds Histogram of the latency of processing admission requests\n# TYPE controller_runtime_webhook_latency_seconds histogram',
    );
    expect(text).toContain(
      '# HELP controller_runtime_webhook_requests_total Total number of admission requests by HTTP status code.\n# TYPE controller_runtime_webhook_requests_total counter',
    );
    expect(text).toContain(
      '# HELP controller_runtime_webhook_requests_in_flight Current number of admission requests being served.\n# TYPE controller_runtime_webhook_requests_in_flight gauge',
    );
    expect(samples(text, 'controller_runtime_webhook_requests_total').sort()).toEqual([
      'controller_runtime_webhook_requests_total{webhook="/validate-apps-v1-deployment",code="200"} 0',
      'controller_runtime_webhook_requests_total{webhook="/validate-apps-v1-deployment",code="500"} 0',
    ]);
    expect(samples(text, 'controller_runtime_webhook_requests_in_flight')).toEqual([
      'controller_runtime_webhook_requests_in_flight{webhook="/validate-apps-v1-deployment"} 0',
    ]);
    // As controller-runtime: the latency series appears with the first request.
    expect(samples(text, 'controller_runtime_webhook_latency_seconds_count')).toEqual([]);
  });

  it('records requests by code and latency in powers of ten from 10 ns to 1000 s', async () => {
    expect(webhookLatencyBuckets).toEqual([
      1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 0.01, 0.1, 1, 10, 100, 1000,
    ]);
    const metrics = new MetricsRegistry();
    const mutate = metrics.webhook('/mutate');
    mutate.incInFlight();
    mutate.incInFlight();
    mutate.decInFlight();
    mutate.observeRequest({ code: 200, durationSeconds: 0.004 });
    mutate.observeRequest({ code: 200, durationSeconds: 2 });
    mutate.observeRequest({ code: 400, durationSeconds: 0.00002 });
    // A clock that went backwards is counted but not timed.
    mutate.observeRequest({ code: 500, durationSeconds: -1 });
    const text = await metrics.metrics();
    expect(text).toContain('controller_runtime_webhook_requests_in_flight{webhook="/mutate"} 1');
    expect(samples(text, 'controller_runtime_webhook_requests_total').sort()).toEqual([
      'controller_runtime_webhook_requests_total{webhook="/mutate",code="200"} 2',
      'controller_runtime_webhook_requests_total{webhook="/mutate",code="400"} 1',
      'controller_runtime_webhook_requests_total{webhook="/mutate",code="500"} 1',
    ]);
    expect(samples(text, 'controller_runtime_webhook_latency_seconds_bucket')).toEqual([
      'controller_runtime_webhook_latency_seconds_bucket{le="1e-8",webhook="/mutate"} 0',
      'controller_runtime_webhook_latency_seconds_bucket{le="1e-7",webhook="/mutate"} 0',
      'controller_runtime_webhook_latency_seconds_bucket{le="0.000001",webhook="/mutate"} 0',
      'controller_runtime_webhook_latency_seconds_bucket{le="0.00001",webhook="/mutate"} 0',
      'controller_runtime_webhook_latency_seconds_bucket{le="0.0001",webhook="/mutate"} 1',
      'controller_runtime_webhook_latency_seconds_bucket{le="0.001",webhook="/mutate"} 1',
      'controller_runtime_webhook_latency_seconds_bucket{le="0.01",webhook="/mutate"} 2',
      'controller_runtime_webhook_latency_seconds_bucket{le="0.1",webhook="/mutate"} 2',
      'controller_runtime_webhook_latency_seconds_bucket{le="1",webhook="/mutate"} 2',
      'controller_runtime_webhook_latency_seconds_bucket{le="10",webhook="/mutate"} 3',
      'controller_runtime_webhook_latency_seconds_bucket{le="100",webhook="/mutate"} 3',
      'controller_runtime_webhook_latency_seconds_bucket{le="1000",webhook="/mutate"} 3',
      'controller_runtime_webhook_latency_seconds_bucket{le="+Inf",webhook="/mutate"} 3',
    ]);
    expect(text).toContain('controller_runtime_webhook_latency_seconds_count{webhook="/mutate"} 3');
  });

  it('refuses a webhook family name taken by another kind of metric', () => {
    const metrics = new MetricsRegistry();
    metrics.gauge({ name: 'controller_runtime_webhook_requests_total', help: 'taken' });
    expect(() => metrics.webhook('/validate')).toThrow(
      /metric "controller_runtime_webhook_requests_total" is already registered as a gauge/,
    );
  });
});

describe('MetricsRegistry workqueue metrics', () => {
  it('exports what a WorkQueue reports, with name and controller labels', async () => {
    const metrics = new MetricsRegistry();
    const clock = new FakeClock();
    const queue = new WorkQueue<string>({
      name: 'deployment',
      clock,
      metrics: metrics.workqueueMetrics,
    });
    const labels = '{name="deployment",controller="deployment"}';
    // The FIFO queue's depth has controller-runtime's priority label, empty.
    const depthLabels = '{name="deployment",controller="deployment",priority=""}';
    let text = await metrics.metrics();
    expect(text).toContain(`workqueue_depth${depthLabels} 0`);
    for (const metric of [
      'workqueue_adds_total',
      'workqueue_retries_total',
      'workqueue_queue_duration_seconds_count',
      'workqueue_work_duration_seconds_count',
      'workqueue_unfinished_work_seconds',
      'workqueue_longest_running_processor_seconds',
    ]) {
      expect(text).toContain(`${metric}${labels} 0`);
    }

    queue.add('a');
    queue.add('b');
    queue.add('a');
    queue.addAfter('c', 1000);
    clock.advance(2000);
    const first = await queue.get();
    clock.advance(1500);
    await queue.get();
    clock.advance(500);
    text = await metrics.metrics();
    expect(text).toContain(`workqueue_depth${depthLabels} 1`);
    expect(text).toContain(`workqueue_adds_total${labels} 3`);
    expect(text).toContain(`workqueue_retries_total${labels} 1`);
    expect(text).toContain(`workqueue_queue_duration_seconds_count${labels} 2`);
    expect(text).toContain(`workqueue_queue_duration_seconds_sum${labels} 5.5`);
    expect(text).toContain(
      'workqueue_queue_duration_seconds_bucket{le="10",name="deployment",controller="deployment"} 2',
    );
    expect(text).toContain(
      'workqueue_queue_duration_seconds_bucket{le="1",name="deployment",controller="deployment"} 0',
    );
    // Polled at collection: 'a' in flight for 2 s, 'b' for 0.5 s.
    expect(text).toContain(`workqueue_unfinished_work_seconds${labels} 2.5`);
    expect(text).toContain(`workqueue_longest_running_processor_seconds${labels} 2`);
    expect(text).toContain(
      '# HELP workqueue_longest_running_processor_seconds How many seconds has the longest running processor for workqueue been running.',
    );

    queue.done(first.item ?? '');
    clock.advance(1000);
    text = await metrics.metrics();
    expect(text).toContain(`workqueue_work_duration_seconds_count${labels} 1`);
    expect(text).toContain(`workqueue_work_duration_seconds_sum${labels} 2`);
    expect(text).toContain(`workqueue_unfinished_work_seconds${labels} 1.5`);
    expect(text).toContain(`workqueue_longest_running_processor_seconds${labels} 1.5`);
  });

  it('exports a PriorityQueue depth per priority, capping the number of priority series', async () => {
    const metrics = new MetricsRegistry();
    const queue = new PriorityQueue<string>({
      name: 'app',
      clock: new FakeClock(),
      metrics: metrics.workqueueMetrics,
    });
    const depth = (priority: string) =>
      `workqueue_depth{name="app",controller="app",priority="${priority}"}`;
    let text = await metrics.metrics();
    expect(text).toContain(`${depth('0')} 0`);
    expect(text).toContain(
      '# HELP workqueue_depth Current depth of workqueue by workqueue and priority',
    );
    queue.addWithOptions('old-1', { priority: LowPriority });
    queue.addWithOptions('old-2', { priority: LowPriority });
    queue.add('new');
    text = await metrics.metrics();
    expect(text).toContain(`${depth('-100')} 2`);
    expect(text).toContain(`${depth('0')} 1`);
    // Raising a pending item's priority moves it from one series to the other.
    queue.addWithOptions('old-1', { priority: 5 });
    text = await metrics.metrics();
    expect(text).toContain(`${depth('-100')} 1`);
    expect(text).toContain(`${depth('5')} 1`);
    const first = await queue.get();
    expect(first).toEqual({ item: 'old-1', priority: 5, shutdown: false });
    text = await metrics.metrics();
    expect(text).toContain(`${depth('5')} 0`);
    expect(text).toContain('workqueue_adds_total{name="app",controller="app"} 3');
    // 25 priorities get series of their own (0, -100 and 5 so far); later ones share one.
    for (let priority = 1000; priority < 1030; priority++) {
      queue.addWithOptions(`p${priority}`, { priority });
    }
    text = await metrics.metrics();
    expect(text).toContain(`${depth('1021')} 1`);
    expect(text).not.toContain(depth('1022'));
    expect(text).toContain(`${depth(priorityCardinalityExceeded)} 8`);
    expect(maxDepthPriorities).toBe(25);
    // Items counted under the shared series leave it when handed out.
    for (let n = 0; n < 8; n++) await queue.get();
    text = await metrics.metrics();
    expect(text).toContain(`${depth(priorityCardinalityExceeded)} 0`);
    expect(text).toContain(`${depth('1021')} 1`);
  });

  it('drops the polled series once the queue unregisters them', async () => {
    const metrics = new MetricsRegistry();
    const queue = new WorkQueue<string>({
      name: 'gone',
      clock: new FakeClock(),
      metrics: metrics.workqueueMetrics,
    });
    queue.add('x');
    const { item } = await queue.get();
    queue.shutDown();
    expect(await metrics.metrics()).toContain('workqueue_unfinished_work_seconds{name="gone"');
    queue.done(item ?? '');
    const text = await metrics.metrics();
    expect(text).not.toContain('workqueue_unfinished_work_seconds{name="gone"');
    expect(text).not.toContain('workqueue_longest_running_processor_seconds{name="gone"');
    // Pushed series stay, as in controller-runtime.
    expect(text).toContain('workqueue_adds_total{name="gone",controller="gone"} 1');
  });
});

describe('MetricsRegistry helpers for other components', () => {
  it('exports informer cache sizes read at scrape time', async () => {
    const metrics = new MetricsRegistry();
    let pods = 3;
    const unregister = metrics.cacheObjects('pods', () => pods);
    metrics.cacheObjects('deployments.apps', () => 1);
    let text = await metrics.metrics();
    expect(text).toContain('# TYPE ops_cache_objects gauge');
    expect(text).toContain('ops_cache_objects{resource="pods"} 3');
    expect(text).toContain('ops_cache_objects{resource="deployments.apps"} 1');
    pods = 7;
    expect(await metrics.metrics()).toContain('ops_cache_objects{resource="pods"} 7');
    unregister();
    text = await metrics.metrics();
    expect(text).not.toContain('resource="pods"');
    expect(text).toContain('ops_cache_objects{resource="deployments.apps"} 1');
  });

  it('skips a failing reader without breaking the scrape', async () => {
    const warnings: unknown[] = [];
    const { pino } = await import('pino');
    const logger = pino(
      { level: 'warn' },
      { write: (line: string) => warnings.push(JSON.parse(line)) },
    );
    const metrics = new MetricsRegistry({ logger });
    metrics.cacheObjects('broken', () => {
      throw new Error('informer not started');
    });
    metrics.cacheObjects('nan', () => Number.NaN);
    metrics.cacheObjects('fine', () => 2);
    const text = await metrics.metrics();
    expect(text).toContain('ops_cache_objects{resource="fine"} 2');
    expect(text).not.toContain('resource="broken"');
    expect(text).not.toContain('resource="nan"');
    expect(warnings).toHaveLength(2);
  });

  it('sums the series of a counter or polled gauge whose labels match, 0 for what it lacks', async () => {
    const metrics = new MetricsRegistry();
    const moved = metrics.counter({
      name: 'ops_moved_total',
      help: 'Moved',
      labelNames: ['shard', 'reason'],
    });
    moved.inc({ shard: 'a', reason: 'drain' }, 3);
    moved.inc({ shard: 'b', reason: 'drain' }, 2);
    moved.inc({ shard: 'a', reason: 'dead' });
    const polled = metrics.polledGauge({ name: 'ops_owned', help: 'Owned', labelNames: ['shard'] });
    polled.register({ shard: 'a' }, () => 7);
    metrics.histogram({ name: 'ops_sizes', help: 'Sizes', buckets: [1] }).observe(5);
    expect(await metrics.sum('ops_moved_total')).toBe(6);
    expect(await metrics.sum('ops_moved_total', { reason: 'drain' })).toBe(5);
    expect(await metrics.sum('ops_moved_total', { shard: 'a', reason: 'drain' })).toBe(3);
    expect(await metrics.sum('ops_moved_total', { shard: 'c' })).toBe(0);
    expect(await metrics.sum('ops_owned', { shard: 'a' })).toBe(7);
    expect(await metrics.sum('ops_sizes')).toBe(0);
    expect(await metrics.sum('ops_absent')).toBe(0);
  });

  it('gets or creates gauges, counters and histograms, refusing conflicting ones', async () => {
    const metrics = new MetricsRegistry();
    const leader = metrics.gauge({ name: 'ops_leader', help: 'Whether this replica leads' });
    expect(metrics.gauge({ name: 'ops_leader', help: 'again' })).toBe(leader);
    leader.set(1);
    const calls = metrics.counter({
      name: 'ops_api_calls_total',
      help: 'API calls',
      labelNames: ['verb'],
    });
    calls.inc({ verb: 'get' });
    const sizes = metrics.histogram({ name: 'ops_sizes', help: 'Sizes', buckets: [1, 10] });
    sizes.observe(5);
    const polled = metrics.polledGauge({
      name: 'ops_watchers',
      help: 'Open watches',
      labelNames: ['resource'],
    });
    polled.register({ resource: 'pods' }, () => 4);
    const text = await metrics.metrics();
    expect(text).toContain('ops_leader 1');
    expect(text).toContain('ops_api_calls_total{verb="get"} 1');
    expect(text).toContain('ops_sizes_bucket{le="10"} 1');
    expect(text).toContain('ops_watchers{resource="pods"} 4');

    const conflict = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        if (MetricsError.isInstance(error)) return error.message;
        throw error;
      }
      return 'no error';
    };
    expect(conflict(() => metrics.counter({ name: 'ops_leader', help: '' }))).toMatch(
      /already registered as a gauge with labels \[\], not as a counter/,
    );
    expect(
      conflict(() => metrics.counter({ name: 'ops_api_calls_total', help: '', labelNames: ['x'] })),
    ).toMatch(/labels \[verb\]/);
    expect(conflict(() => metrics.gauge({ name: 'workqueue_depth', help: '' }))).toMatch(
      /built-in controller-runtime metrics/,
    );
    expect(conflict(() => metrics.gauge({ name: 'bad-name', help: '' }))).toMatch(
      /cannot register gauge "bad-name": .*must match/,
    );
  });

  it('optionally exports process metrics', async () => {
    const metrics = new MetricsRegistry({ processMetrics: true });
    expect(await metrics.metrics()).toContain('process_cpu_user_seconds_total');
    expect(await new MetricsRegistry().metrics()).not.toContain('process_cpu_user_seconds_total');
  });
});
