/**
 * kube-apiserver's admission webhooks for the local server: {@link WebhookAdmission} reads
 * Mutating- and ValidatingWebhookConfigurations from the store and calls the webhooks over
 * HTTPS with kube-apiserver's matching, ordering, failure and error semantics.
 */
export {
  type AdmissionReviewVersion,
  chooseReviewVersion,
  createAdmissionReview,
  type ReviewInput,
  type VerifiedResponse,
  verifyAdmissionResponse,
} from './admission-review.js';
export { WebhookAdmission, type WebhookAdmissionOptions } from './webhook-admission.js';
export {
  type WebhookAgentLease,
  WebhookAgents,
  type WebhookAgentsOptions,
} from './webhook-agents.js';
export { WebhookCallError } from './webhook-call-error.js';
export {
  callWebhook,
  resolveService,
  type WebhookTarget,
  webhookTarget,
} from './webhook-client.js';
export {
  readWebhooks,
  type Webhook,
  type WebhookClientConfig,
  type WebhookRule,
  webhookConfigurationKeys,
  webhooksOf,
} from './webhook-configuration.js';
export { dryRunUnsupported, webhookDenied } from './webhook-denial.js';
export {
  type AdmissionSubject,
  admissionNamespace,
  isExemptFromWebhooks,
  type MatchLookups,
  matchWebhook,
  type RuleSubject,
  ruleMatches,
  type WebhookInvocation,
} from './webhook-matcher.js';
export {
  applyWebhookPatch,
  decodeWebhookPatch,
  type PatchResult,
} from './webhook-patch.js';
