import { LabelSelectorError } from './errors/label-selector-error.js';
import type { LabelSelector } from './kubernetes-object.js';
import {
  createLabelRequirement,
  formatLabelRequirement,
  type LabelOperator,
  type LabelRequirement,
  matchesLabelRequirement,
} from './label-requirement.js';

/**
 * A compiled label selector: a conjunction of {@link LabelRequirement}s, immutable once built.
 *
 * Build one with {@link parseLabelSelector} (the string form, as in `kubectl get -l`) or
 * {@link labelSelectorFromObject} (the structured form found in specs).
 */
export class Selector {
  /** A selector that every label set satisfies (the empty selector). */
  static readonly everything: Selector = new Selector([], false);
  /** A selector that no label set satisfies (an absent structured selector). */
  static readonly nothing: Selector = new Selector([], true);

  private constructor(
    /** The requirements, sorted by key; all must hold. */
    readonly requirements: readonly LabelRequirement[],
    private readonly selectsNothing: boolean,
  ) {}

  /** @internal Builds a selector from requirements already checked. */
  static fromRequirements(requirements: readonly LabelRequirement[]): Selector {
    if (requirements.length === 0) return Selector.everything;
    const sorted = [...requirements].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    return new Selector(sorted, false);
  }

  /** Whether every requirement holds for `labels` (undefined labels are an empty set). */
  matches(labels: Readonly<Record<string, string>> | undefined): boolean {
    if (this.selectsNothing) return false;
    for (const requirement of this.requirements) {
      if (!matchesLabelRequirement(requirement, labels)) return false;
    }
    return true;
  }

  /** True for the empty selector, which matches every label set. */
  isEverything(): boolean {
    return !this.selectsNothing && this.requirements.length === 0;
  }

  /** True for the selector that matches nothing. */
  isNothing(): boolean {
    return this.selectsNothing;
  }

  /**
   * The canonical string form, requirements sorted by key: parsing it gives back an equal
   * selector. The nothing selector has no string form and prints as the empty string, as in
   * Kubernetes; check {@link isNothing} before sending a selector to the API server.
   */
  toString(): string {
    return this.requirements.map(formatLabelRequirement).join(',');
  }
}

const structuredOperators: Record<string, LabelOperator> = {
  In: 'In',
  NotIn: 'NotIn',
  Exists: 'Exists',
  DoesNotExist: 'DoesNotExist',
};

/**
 * Compiles a structured selector (`metav1.LabelSelector`) as Kubernetes does:
 * `undefined`/`null` selects nothing, `{}` selects everything, `matchLabels` entries are
 * equality requirements, and `matchExpressions` take the operators `In`, `NotIn`, `Exists`
 * and `DoesNotExist`.
 *
 * @throws {LabelSelectorError} for an unknown operator, a bad key or value, or values that do
 *   not fit the operator.
 */
export function labelSelectorFromObject(selector: LabelSelector | null | undefined): Selector {
  if (selector === undefined || selector === null) return Selector.nothing;
  const source = JSON.stringify(selector);
  const requirements: LabelRequirement[] = [];
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) {
    requirements.push(createLabelRequirement(key, 'Equals', [String(value)], source));
  }
  for (const expression of selector.matchExpressions ?? []) {
    const operator = structuredOperators[expression.operator];
    if (operator === undefined) {
      throw new LabelSelectorError(
        `invalid label selector ${source}: "${expression.operator}" is not a valid label selector operator; use one of In, NotIn, Exists, DoesNotExist`,
        source,
      );
    }
    requirements.push(
      createLabelRequirement(expression.key, operator, expression.values ?? [], source),
    );
  }
  return Selector.fromRequirements(requirements);
}

/**
 * Whether `labels` match a structured selector. An absent selector matches nothing and an
 * empty one everything, as in Kubernetes.
 *
 * @throws {LabelSelectorError} when the selector is invalid.
 */
export function matchesLabelSelector(
  selector: LabelSelector | null | undefined,
  labels: Readonly<Record<string, string>> | undefined,
): boolean {
  return labelSelectorFromObject(selector).matches(labels);
}

/**
 * The string form of a structured selector, for the `labelSelector` query parameter.
 *
 * @throws {LabelSelectorError} when the selector is invalid.
 */
export function labelSelectorToString(selector: LabelSelector): string {
  return labelSelectorFromObject(selector).toString();
}
