/**
 * Bug class: a child created twice after a restart between its create and the status write
 * that records it (Sieve's intermediate-state bugs). The buggy operator names its child with
 * `generateName` and remembers the name only in the Widget's status: crashed after the
 * create, the next incarnation finds no name recorded and creates a second child. The
 * correct twin derives the name from the Widget, so the create is idempotent.
 */
import { isAlreadyExists } from '@ops/core';
import { childOf, forWidget, patchWidgetStatus, widget, widgetScenario } from './widget.js';

const reconcile = (buggy: boolean) =>
  forWidget(async (owner, manager, request) => {
    let childName = owner.status?.child;
    if (!childName) {
      const child = childOf(owner, buggy ? '' : `${request.name}-data`, owner.spec.value);
      if (buggy && child.metadata) {
        delete child.metadata.name;
        child.metadata.generateName = `${request.name}-`;
      }
      try {
        childName = (await manager.client.create(child)).metadata?.name;
      } catch (error) {
        if (buggy || !isAlreadyExists(error)) throw error;
        childName = `${request.name}-data`;
      }
    }
    if (owner.status?.child === childName) return undefined;
    if (childName) await patchWidgetStatus(manager, request, { child: childName });
    return undefined;
  });

const steps = [{ name: 'create the widget', apply: [widget('app', { value: 'one' })] }];
// The child's generated name differs from run to run: declared nondeterministic.
const nondeterministic = [
  { kind: 'ConfigMap', path: 'metadata.name' },
  { kind: 'ConfigMap', path: 'metadata.generateName' },
  { kind: 'Widget', path: 'status.child' },
];

export const duplicateChildBuggy = widgetScenario(
  'duplicate-child (buggy)',
  reconcile(true),
  steps,
  nondeterministic,
);
export const duplicateChildCorrect = widgetScenario(
  'duplicate-child (correct)',
  reconcile(false),
  steps,
  nondeterministic,
);
