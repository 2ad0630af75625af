import type { Logger } from 'pino';
import type { ConversionDeclaration } from '../crd/conversion.js';
import type { Manager } from '../manager/manager.js';
import type { WebhookDeclaration } from '../webhook/webhook-declaration.js';
import type { OperatorFlags } from './operator-flags.js';
import type {
  SelfManagedCertificateNames,
  SelfManagedCertificateOptions,
} from './self-managed-certificates.js';

/** What is particular to one operator; everything else is `runOperator`'s. */
export interface OperatorDefinition {
  /** The operator's name: in `--help`, in every log line (`operator`), in error messages. */
  name: string;
  /** The Lease of `--leader-elect`: `application-operator.example.com`. */
  leaderElectionId: string;
  /** The admission webhooks the webhook server serves (unless `--disable-webhooks`). */
  webhooks?: readonly WebhookDeclaration[];
  /**
   * The conversions (`defineConversion`) the webhook server serves at `/convert` (unless
   * `--disable-webhooks`), for the kinds whose CRD says `conversion: 'Webhook'`. The
   * self-managed certificate mode injects its CA bundle into those CRDs.
   */
  conversions?: readonly ConversionDeclaration[];
  /**
   * Adds the operator's controllers (and runnables) to the manager. Called once, before the
   * manager starts, also when webhooks are disabled.
   */
  setup?: (manager: Manager, context: OperatorContext) => void | Promise<void>;
  /**
   * What kustomize's `namePrefix` puts before the names of the operator's objects; the
   * self-managed certificate mode derives the Secret, Service and webhook configuration
   * names from it (see {@link certificateNamesOf}). Default `<name>-`.
   */
  resourcePrefix?: string;
  /** Settings of `--webhook-cert-mode=self-managed`. */
  selfManagedCertificates?: Pick<
    SelfManagedCertificateOptions,
    'caLifetimeMs' | 'certificateLifetimeMs' | 'checkIntervalMs' | 'extraHosts'
  > & {
    /**
     * More CRDs (by name) whose conversion webhook gets the CA bundle, besides those of
     * `conversions` (which always do).
     */
    customResourceDefinitions?: readonly string[];
  };
}

/** What `setup` receives besides the manager. */
export interface OperatorContext {
  /** The operator's logger (`operator: <name>`). */
  logger: Logger;
  /** The parsed flags. */
  flags: OperatorFlags;
}

/**
 * The objects `--webhook-cert-mode=self-managed` reads and writes for `definition`, as
 * kubebuilder's kustomize layout names them once its `namePrefix` (`resourcePrefix`) is
 * applied: the Secret `<prefix>webhook-server-cert` (or `secret`, from
 * `--webhook-cert-secret`), the Service `<prefix>webhook-service`, and
 * `<prefix>mutating-webhook-configuration` / `<prefix>validating-webhook-configuration`
 * when the definition declares webhooks of that type, plus the CRDs of its `conversions` and
 * those `selfManagedCertificates.customResourceDefinitions` lists.
 * The entry point and the generated RBAC (`selfManagedCertificateRbac`) both use it, so
 * they name the same objects.
 */
export function certificateNamesOf(
  definition: Pick<
    OperatorDefinition,
    'name' | 'resourcePrefix' | 'webhooks' | 'conversions' | 'selfManagedCertificates'
  >,
  secret?: string,
): SelfManagedCertificateNames {
  const prefix = definition.resourcePrefix ?? `${definition.name}-`;
  const types = new Set((definition.webhooks ?? []).map((webhook) => webhook.type));
  const crds = [
    ...new Set([
      ...(definition.conversions ?? []).map((conversion) => conversion.definition.name),
      ...(definition.selfManagedCertificates?.customResourceDefinitions ?? []),
    ]),
  ];
  return {
    secret: secret ?? `${prefix}webhook-server-cert`,
    service: `${prefix}webhook-service`,
    ...(types.has('mutating')
      ? { mutatingConfiguration: `${prefix}mutating-webhook-configuration` }
      : {}),
    ...(types.has('validating')
      ? { validatingConfiguration: `${prefix}validating-webhook-configuration` }
      : {}),
    ...(crds.length > 0 ? { customResourceDefinitions: crds } : {}),
  };
}
