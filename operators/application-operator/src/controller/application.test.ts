import { ApiError, type KubernetesObject } from '@ops/core';
import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { type Application, applicationFinalizer } from '../api/v1/application.js';
import { type ApplicationReconcilerDeps, applicationReconciler } from './application.js';

/** An Application already carrying its finalizer, with the given name and status. */
const application = (name: string, status?: Application['status']): Application =>
  ({
    apiVersion: 'core.crd.lixueduan.com/v1',
    kind: 'Application',
    metadata: {
      name,
      namespace: 'default',
      uid: 'app-uid',
      generation: 1,
      finalizers: [applicationFinalizer],
    },
    spec: { enabled: true, image: 'nginx' },
    ...(status ? { status } : {}),
  }) as Application;

/**
 * A reconciler over one stored Application; records every write and event. With
 * `createHangs`, a create never answers: it ends only when the signal it was given aborts.
 */
function harness(stored: Application, { createHangs = false } = {}) {
  const writes: string[] = [];
  const patches: unknown[] = [];
  const events: string[] = [];
  const deps = {
    client: {
      get: async (kind: { kind: string }, name: string) => {
        if (kind.kind === 'Application' && name === stored.metadata.name)
          return structuredClone(stored);
        throw new ApiError(404, 'NotFound', 'not found', {
          kind: 'Status',
          code: 404,
          reason: 'NotFound',
          message: 'not found',
        });
      },
      create: async (object: KubernetesObject, options?: { signal?: AbortSignal }) => {
        writes.push(`create ${object.kind}`);
        if (!createHangs) return object;
        return new Promise((_resolve, reject) =>
          options?.signal?.addEventListener('abort', () => reject(options.signal?.reason)),
        );
      },
      update: async (object: KubernetesObject) => {
        writes.push(`update ${object.kind}`);
        return object;
      },
      patch: async (object: KubernetesObject) => {
        writes.push(`patch ${object.kind}`);
        return object;
      },
      patchStatus: async (object: KubernetesObject, patch: unknown) => {
        patches.push(patch);
        return object;
      },
    },
    recorder: {
      event: (_object: unknown, type: string, reason: string, message: string) =>
        events.push(`${type} ${reason}: ${message}`),
    },
    now: () => new Date('2026-01-01T00:00:00Z'),
  } as unknown as ApplicationReconcilerDeps;
  const reconcile = applicationReconciler(deps);
  const aborter = new AbortController();
  const context = { log: pino({ level: 'silent' }), signal: aborter.signal };
  return {
    writes,
    patches,
    events,
    abort: (reason: Error) => aborter.abort(reason),
    run: () => reconcile({ namespace: 'default', name: stored.metadata.name ?? '' }, context),
  };
}

describe('applicationReconciler, the reconcile timeout', () => {
  it("gives its writes the reconcile's signal: a create that hangs ends when the reconcile is aborted", async () => {
    const h = harness(application('demo'), { createHangs: true });
    const reconcile = h.run();
    const timeout = new Error('reconcile of default/demo ran past 30000 ms');
    await vi.waitFor(() => expect(h.writes).toEqual(['create Deployment']));
    h.abort(timeout);
    await expect(reconcile).rejects.toBe(timeout);
  });
});

describe('applicationReconciler, child-name budget', () => {
  const name = `a${'b'.repeat(63)}`; // 64 characters: a valid name, an invalid label value

  it('reports a name it cannot serve on the object (Ready=False InvalidName + Warning event) and does not retry', async () => {
    const h = harness(application(name));
    expect(await h.run()).toBeUndefined();
    expect(h.writes).toEqual([]);
    const message = `Application name "${name}" (64 characters) cannot be served: its label app.kubernetes.io/instance "${name}" would be invalid: must be no more than 63 characters; use an Application name of at most 63 characters`;
    expect(h.patches).toEqual([
      {
        status: {
          ready: false,
          observedGeneration: 1,
          conditions: [
            expect.objectContaining({
              type: 'Ready',
              status: 'False',
              reason: 'InvalidName',
              message,
            }),
          ],
        },
      },
    ]);
    expect(h.events).toEqual([`Warning InvalidName: ${message}`]);
  });

  it('writes nothing more once the problem is reported', async () => {
    const first = harness(application(name));
    await first.run();
    const reported = (first.patches[0] as { status: Application['status'] }).status;
    const again = harness(application(name, reported));
    expect(await again.run()).toBeUndefined();
    expect(again.writes).toEqual([]);
    expect(again.patches).toEqual([]);
    expect(again.events).toEqual([]);
  });

  it('creates the Deployment of a name at the budget (63 characters)', async () => {
    const h = harness(application('c'.repeat(63)));
    await h.run();
    expect(h.writes).toEqual(['create Deployment']);
  });
});

describe('applicationReconciler, spec.image missing or invalid (no webhook refused it)', () => {
  const withImage = (image: string | undefined): Application => {
    const app = application('demo');
    if (image === undefined) delete app.spec.image;
    else app.spec.image = image;
    return app;
  };

  it.each([
    [
      'missing',
      undefined,
      'MissingImage',
      'spec.image is not set: set spec.image to the container image to run (for example nginx:1.22); until then Deployment app-demo is neither created nor changed',
    ],
    [
      'empty',
      '',
      'MissingImage',
      'spec.image is not set: set spec.image to the container image to run (for example nginx:1.22); until then Deployment app-demo is neither created nor changed',
    ],
    [
      'invalid',
      'Nginx:latest!',
      'InvalidImage',
      'invalid image name: Nginx:latest!: spec.image must be an image reference such as nginx:1.22 or ghcr.io/org/app@sha256:<digest>; until then Deployment app-demo is neither created nor changed',
    ],
  ])(
    '%s: Ready=False naming the field, a Warning event, no Deployment, no retry',
    async (_what, image, reason, message) => {
      const h = harness(withImage(image));
      expect(await h.run()).toBeUndefined();
      expect(h.writes).toEqual([]);
      expect(h.patches).toEqual([
        {
          status: {
            ready: false,
            observedGeneration: 1,
            conditions: [
              expect.objectContaining({ type: 'Ready', status: 'False', reason, message }),
            ],
          },
        },
      ]);
      expect(h.events).toEqual([`Warning ${reason}: ${message}`]);
      // Reported once: the next reconcile of the same spec writes nothing.
      const reported = (h.patches[0] as { status: Application['status'] }).status;
      const again = harness({ ...withImage(image), status: reported });
      await again.run();
      expect([...again.writes, ...again.patches, ...again.events]).toEqual([]);
    },
  );
});
