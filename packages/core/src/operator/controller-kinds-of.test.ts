import { describe, expect, it } from 'vitest';
import { controllerKindsOf } from './controller-kinds-of.js';

const widget = { apiVersion: 'example.com/v1', kind: 'Widget' };

describe('controllerKindsOf', () => {
  it("reads each controller's for() and owns() from the operator's setup, without a cluster", async () => {
    const kinds = await controllerKindsOf({
      name: 'widget-operator',
      setup: (manager) => {
        // An informer started during setup (as the sidecar-operator's index does) is
        // stopped again before the result comes back.
        manager.cache.getInformer({
          group: '',
          version: 'v1',
          kind: 'Pod',
          plural: 'pods',
          namespaced: true,
        });
        manager
          .controller('widget')
          .for(widget)
          .owns({ apiVersion: 'apps/v1', kind: 'Deployment' })
          .owns({ apiVersion: 'v1', kind: 'Secret' }, { onlyController: false })
          .watches({ apiVersion: 'v1', kind: 'Pod' }, () => [])
          .complete(async () => undefined);
        manager
          .controller()
          .for({ apiVersion: 'v1', kind: 'Node' })
          .complete(async () => undefined);
      },
    });
    expect(kinds).toEqual([
      {
        name: 'widget',
        for: widget,
        owns: [
          { kind: { apiVersion: 'apps/v1', kind: 'Deployment' }, onlyController: true },
          { kind: { apiVersion: 'v1', kind: 'Secret' }, onlyController: false },
        ],
      },
      { name: 'node', for: { apiVersion: 'v1', kind: 'Node' }, owns: [] },
    ]);
  });

  it('runs setup with --sharding, so a controller that shards under the flag reports its ring', async () => {
    const kinds = await controllerKindsOf({
      name: 'widget-operator',
      setup: (manager, { flags }) => {
        manager
          .controller('widget')
          .for(widget)
          .owns({ apiVersion: 'apps/v1', kind: 'Deployment' })
          .withOptions(flags.sharding ? { sharding: { ring: 'widgets' } } : {})
          .complete(async () => undefined);
        manager
          .controller('defaulted')
          .for({ apiVersion: 'v1', kind: 'ConfigMap' })
          .withOptions(flags.sharding ? { sharding: {} } : {})
          .complete(async () => undefined);
      },
    });
    expect(kinds).toEqual([
      {
        name: 'widget',
        for: widget,
        owns: [{ kind: { apiVersion: 'apps/v1', kind: 'Deployment' }, onlyController: true }],
        sharding: { ring: 'widgets' },
      },
      {
        name: 'defaulted',
        for: { apiVersion: 'v1', kind: 'ConfigMap' },
        owns: [],
        sharding: { ring: 'defaulted' },
      },
    ]);
  });

  it('gives no controllers for a definition without setup', async () => {
    expect(await controllerKindsOf({ name: 'empty-operator' })).toEqual([]);
  });

  it("names the operator when its setup fails and keeps setup's error as the cause", async () => {
    const cause = new Error('needs a REST mapping');
    const result = controllerKindsOf({
      name: 'widget-operator',
      setup: async () => {
        throw cause;
      },
    });
    await expect(result).rejects.toThrow(
      /reading the controllers of widget-operator: its setup failed without a cluster \(needs a REST mapping\)/,
    );
    await expect(result).rejects.toMatchObject({ cause });
  });
});
