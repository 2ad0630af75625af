/**
 * The parts of `admissionregistration.k8s.io/v1` that more than one package reads or writes:
 * which requests an admission webhook intercepts. `@ops/core` declares webhooks with these
 * rules and renders them into Mutating- and ValidatingWebhookConfigurations; the local API
 * server reads them back from those objects to decide which webhooks to call.
 */

/** An operation a rule names (`OperationType`); `*` is every operation. */
export type OperationType = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT' | '*';

/** Which objects a rule covers (`ScopeType`): cluster-scoped, namespaced, or `*` both. */
export type ScopeType = 'Cluster' | 'Namespaced' | '*';

/**
 * One rule of a webhook (`RuleWithOperations`): a request matches when its operation, API
 * group, API version and resource are each in the lists (`*` matches anything) and the
 * object's scope fits. The API server rejects a rule with an empty list, so all four are
 * required here; the lists are read-only, so `as const` arrays fit.
 */
export interface RuleWithOperations {
  operations: readonly OperationType[];
  /** API groups, `''` for the core group, `*` for all. */
  apiGroups: readonly string[];
  /** API versions, `*` for all. */
  apiVersions: readonly string[];
  /** Plural resources, with subresources as `pods/status`; `*`, `*\/status` and `pods/*` match many. */
  resources: readonly string[];
  /** `Cluster`, `Namespaced` or `*`; the API server defaults it to `*`. */
  scope?: ScopeType;
}
