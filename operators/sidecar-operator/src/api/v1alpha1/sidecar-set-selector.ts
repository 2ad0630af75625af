import { labelSelectorFromObject, Selector } from '@ops/core/meta';
import type { SidecarSet } from './sidecar-set.js';

/**
 * The Pods a SidecarSet selects, compiled from `spec.selector`. Unlike a Deployment's
 * selector, an absent or empty selector selects no Pod (the validating webhook refuses both,
 * but a SidecarSet stored before the webhook was installed must not grab every Pod).
 *
 * @throws {LabelSelectorError} when the selector is invalid (a bad key or value, `In`
 *   without values); the validating webhook refuses those too.
 */
export function sidecarSetSelector(sidecarSet: SidecarSet): Selector {
  const selector = labelSelectorFromObject(sidecarSet.spec?.selector);
  return selector.isEverything() ? Selector.nothing : selector;
}
