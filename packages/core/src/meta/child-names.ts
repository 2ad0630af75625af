import { validateDns1123Label, validateDns1123Subdomain, validateLabelValue } from '@ops/api';

/**
 * The rule a string derived from an object's name must follow: `dns1123-subdomain` (most
 * object names, at most 253 characters), `dns1123-label` (Service and Namespace names, at
 * most 63, no dots) or `label-value` (at most 63).
 */
export type ChildNameRule = 'dns1123-subdomain' | 'dns1123-label' | 'label-value';

/** One name or label value an operator derives from its object's name: `prefix + name + suffix`. */
export interface ChildName {
  /** What the derived string is, for messages: `Deployment name`, `label app.kubernetes.io/instance`. */
  what: string;
  /** The rule the derived string must follow. */
  rule: ChildNameRule;
  /** Text before the object's name (default none), e.g. `app-`. */
  prefix?: string;
  /** Text after the object's name (default none), e.g. `-config`. */
  suffix?: string;
}

const maxLengths: Record<ChildNameRule, number> = {
  'dns1123-subdomain': 253,
  'dns1123-label': 63,
  'label-value': 63,
};

const validators: Record<ChildNameRule, (value: string) => string[]> = {
  'dns1123-subdomain': validateDns1123Subdomain,
  'dns1123-label': validateDns1123Label,
  'label-value': validateLabelValue,
};

/**
 * The longest object name for which every derived string fits its rule's length limit: the
 * operator's child-name budget. Kube accepts object names of up to 253 characters, so an
 * operator that derives `app-<name>` Deployments and puts the name in a label can only serve
 * names of up to 63; checking this up front (at admission, and before the first write)
 * turns a child the API server would refuse forever into one clear message. Never above 253.
 */
export function childNameBudget(children: readonly ChildName[]): number {
  let budget = maxLengths['dns1123-subdomain'];
  for (const child of children) {
    const fixed = (child.prefix ?? '').length + (child.suffix ?? '').length;
    budget = Math.min(budget, maxLengths[child.rule] - fixed);
  }
  return Math.max(0, budget);
}

/**
 * What is wrong with the strings derived from an object's name, one message per invalid
 * one, empty when every one is valid. Each message names the object, the derived string and
 * the rule it breaks (in kube-apiserver's words), and says how to fix it: a name of at most
 * {@link childNameBudget} characters (without dots, when a rule forbids them).
 *
 * Use it in a validating webhook (refuse at admission) and at the start of a reconcile (a
 * `Ready=False` condition and a Warning event, then no retry: only a new object can fix the
 * name), so that such a name is never only logged and retried forever.
 *
 * @example
 * childNameProblems({ kind: 'Application', name }, [
 *   { what: 'Deployment name', rule: 'dns1123-subdomain', prefix: 'app-' },
 *   { what: 'label app.kubernetes.io/instance', rule: 'label-value' },
 * ]);
 */
export function childNameProblems(
  owner: { kind: string; name: string },
  children: readonly ChildName[],
): string[] {
  const budget = childNameBudget(children);
  const noDots = children.some((child) => child.rule === 'dns1123-label');
  const article = /^[AEIOU]/i.test(owner.kind) ? 'an' : 'a';
  const advice = `use ${article} ${owner.kind} name of at most ${budget} characters${noDots ? ' without dots' : ''}`;
  const problems: string[] = [];
  for (const child of children) {
    const value = `${child.prefix ?? ''}${owner.name}${child.suffix ?? ''}`;
    const errors = validators[child.rule](value);
    if (errors.length === 0) continue;
    const shown = value.length > 80 ? `${value.slice(0, 40)}...${value.slice(-20)}` : value;
    problems.push(
      `${owner.kind} name "${owner.name}" (${owner.name.length} characters) cannot be served: its ${child.what} "${shown}" would be invalid: ${errors.join('; ')}; ${advice}`,
    );
  }
  return problems;
}
