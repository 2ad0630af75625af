/**
 * What the planted-bug operators share: the Widget kind (explore.ops.dev/v1, namespaced,
 * with a status subresource) a user creates, the ConfigMap children an operator makes for
 * it, and a scenario around an operator's controller setup.
 */
import {
  type ConfigMap,
  type CustomResource,
  configMaps,
  defineCustomResource,
  type KubernetesObject,
  Manager,
  objectKind,
  type ReconcileContext,
  type Request,
  type Result,
} from '@ops/core';
import { Type } from '@sinclair/typebox';
import { pino } from 'pino';
import type { NondeterministicField } from '../../../src/explore/outcome.js';
import type { Scenario, ScenarioStep } from '../../../src/explore/run.js';

/** The Widget kind: `spec.value` is copied into its child; `status` says what the operator did. */
export const widgetResource = defineCustomResource({
  group: 'explore.ops.dev',
  kind: 'Widget',
  plural: 'widgets',
  singular: 'widget',
  scope: 'Namespaced',
  versions: [
    {
      name: 'v1',
      served: true,
      storage: true,
      spec: Type.Object({ value: Type.String(), enabled: Type.Optional(Type.Boolean()) }),
      status: Type.Object({
        child: Type.Optional(Type.String()),
        value: Type.Optional(Type.String()),
        enabled: Type.Optional(Type.Boolean()),
        observedGeneration: Type.Optional(Type.Integer()),
      }),
    },
  ],
});

export type Widget = CustomResource<typeof widgetResource>;

export const widgets = objectKind<Widget>('explore.ops.dev/v1', 'Widget');

export const widgetCrd = widgetResource.crd() as KubernetesObject;

/** A Widget named `name` the user applies. */
export function widget(name: string, spec: Widget['spec']): Widget {
  return {
    apiVersion: widgetResource.apiVersion,
    kind: widgetResource.kind,
    metadata: { name },
    spec,
  };
}

/**
 * A planted reconciler of the Widget `owner` (read through the manager's client), given the
 * manager it runs in; see {@link forWidget}.
 */
export type WidgetReconciler = (
  owner: Widget,
  manager: Manager,
  request: Request,
  context: ReconcileContext,
) => Promise<Result | undefined>;

/** The reconciler of a planted operator, given the manager it runs in. */
export type PlantedReconciler = (
  manager: Manager,
  request: Request,
  context: ReconcileContext,
) => Promise<Result | undefined>;

/**
 * A scenario whose operator reconciles Widgets (owning ConfigMaps) with `reconcile`; its
 * outcome is the Widgets and ConfigMaps of the namespace.
 */
export function widgetScenario(
  name: string,
  reconcile: PlantedReconciler,
  steps: ScenarioStep[],
  nondeterministic: NondeterministicField[] = [],
): Scenario<Manager> {
  return {
    name,
    crds: [widgetCrd],
    environment: { controlPlane: 'local' },
    createManager: (settings) =>
      new Manager({ ...settings, logger: pino({ level: 'info' }, settings.logDestination) }),
    setup: (manager) => {
      manager
        .controller('widget')
        .for(widgets)
        .owns(configMaps)
        .complete((request, context) => reconcile(manager, request, context));
    },
    steps,
    outcome: {
      kinds: [
        { apiVersion: 'explore.ops.dev/v1', kind: 'Widget' },
        { apiVersion: 'v1', kind: 'ConfigMap' },
      ],
      nondeterministic,
    },
  };
}

/** The ConfigMap child of `owner` named `name` holding `value`. */
export function childOf(owner: Widget, name: string, value: string): ConfigMap {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name,
      namespace: owner.metadata?.namespace ?? '',
      labels: { 'explore.ops.dev/widget': owner.metadata?.name ?? '' },
      ownerReferences: [
        {
          apiVersion: 'explore.ops.dev/v1',
          kind: 'Widget',
          name: owner.metadata?.name ?? '',
          uid: owner.metadata?.uid ?? '',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    data: { value },
  };
}

/** A reconciler that reads the Widget of the request and runs `body` on it; nothing once it is gone. */
export function forWidget(body: WidgetReconciler): PlantedReconciler {
  return async (manager, request, context) => {
    const owner = await readWidget(manager, request);
    return owner ? body(owner, manager, request, context) : undefined;
  };
}

/** The Widget named by `request`, or undefined when it is gone. */
export async function readWidget(manager: Manager, request: Request): Promise<Widget | undefined> {
  try {
    return await manager.client.get(widgets, request.name, request.namespace);
  } catch (error) {
    if ((error as { reason?: string }).reason === 'NotFound') return undefined;
    throw error;
  }
}

/** Records `status` on the Widget named by `request` (a merge patch of its status). */
export async function patchWidgetStatus(
  manager: Manager,
  request: Request,
  status: NonNullable<Widget['status']>,
): Promise<void> {
  await manager.client.patchStatus(
    { ...widgets, metadata: { name: request.name, namespace: request.namespace } },
    { status },
    'merge',
  );
}
