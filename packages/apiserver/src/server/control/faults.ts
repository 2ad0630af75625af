/** A rule that makes matching requests fail or slow down. */
export interface FaultRule {
  /** Verb to match (`get`, `list`, `watch`, `create`, `update`, `patch`, `delete`); any when absent. */
  verb?: string;
  /** Plural resource to match (`pods`); any when absent. */
  resource?: string;
  namespace?: string;
  name?: string;
  /** HTTP code to answer with: 409, 429, 500 (or any error code); none to only delay. */
  code?: number;
  /** Milliseconds to wait before answering (or before failing). */
  delayMs?: number;
  /** Fail only this many matching requests, then the rule is spent. */
  count?: number;
  /** Fail a matching request with this probability (0..1); default 1. */
  probability?: number;
}

/** What a request is, for matching {@link FaultRule}s. */
export interface FaultRequest {
  verb: string;
  resource: string;
  namespace: string;
  name: string;
}

/**
 * The fault rules in force. Matching is first-rule-wins; a rule with `count` is removed
 * once it has fired that many times.
 */
export class FaultRules {
  private rules: Array<FaultRule & { fired: number }> = [];

  constructor(private readonly random: () => number = Math.random) {}

  add(rule: FaultRule): void {
    this.rules.push({ ...rule, fired: 0 });
  }

  clear(): void {
    this.rules = [];
  }

  list(): FaultRule[] {
    return this.rules.map(({ fired: _fired, ...rule }) => rule);
  }

  /** The rule that applies to a request, if any (and counts it as fired). */
  match(request: FaultRequest): FaultRule | undefined {
    for (const rule of this.rules) {
      if (rule.verb !== undefined && rule.verb !== request.verb) continue;
      if (rule.resource !== undefined && rule.resource !== request.resource) continue;
      if (rule.namespace !== undefined && rule.namespace !== request.namespace) continue;
      if (rule.name !== undefined && rule.name !== request.name) continue;
      if (rule.probability !== undefined && this.random() >= rule.probability) continue;
      rule.fired++;
      if (rule.count !== undefined && rule.fired >= rule.count)
        this.rules = this.rules.filter((r) => r !== rule);
      return rule;
    }
    return undefined;
  }
}
