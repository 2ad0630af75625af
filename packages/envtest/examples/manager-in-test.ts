import assert from 'node:assert/strict';
import { type CustomResource, defineCustomResource, Manager } from '@ops/core';
import { Environment, eventually } from '@ops/envtest';
import { Type } from '@sinclair/typebox';
import { pino } from 'pino';

// The operator under test: Widgets report the size they were asked for.
const Widget = defineCustomResource({
  group: 'example.com',
  kind: 'Widget',
  plural: 'widgets',
  scope: 'Namespaced',
  versions: [
    {
      name: 'v1',
      spec: Type.Object({ size: Type.Integer() }),
      status: Type.Object({ observedSize: Type.Optional(Type.Integer()) }),
    },
  ],
});
type Widget = CustomResource<typeof Widget>;

// In a vitest file: this in beforeAll ...
const env = await Environment.start({ crds: [Widget.crd()] });
const manager = new Manager({
  kubeConfig: env.kubeConfig,
  logger: pino({ level: 'silent' }),
  // No fixed ports in tests: parallel test files would collide on :8080 and :8081.
  metricsBindAddress: false,
  healthProbeBindAddress: false,
});
manager
  .controller('widget')
  .for(Widget)
  .complete(async ({ namespace, name }) => {
    const widget = await manager.client.get<Widget>('example.com/v1', 'Widget', name, namespace);
    if (widget.status?.observedSize === widget.spec.size) return;
    await manager.client.updateStatus({ ...widget, status: { observedSize: widget.spec.size } });
  });
const stop = new AbortController();
const running = manager.start(stop.signal); // resolves once stopped; rejects if startup fails

try {
  // ... this in a test ...
  await manager.client.create<Widget>({
    apiVersion: 'example.com/v1',
    kind: 'Widget',
    metadata: { name: 'small', namespace: 'default' },
    spec: { size: 3 },
  });
  await eventually(async () => {
    const widget = await manager.client.get<Widget>('example.com/v1', 'Widget', 'small', 'default');
    assert.equal(widget.status?.observedSize, 3);
  });
} finally {
  // ... and this in afterAll.
  stop.abort();
  await running;
  await env.stop();
}
