import type { KubernetesObject } from '@ops/api';
import type { FieldError } from '../../api/field-error.js';

/** What strategies may ask of the server. */
export interface StrategyContext {
  allocateClusterIP(): string;
}

/**
 * Kind-specific behaviour, as kube-apiserver's registry strategies have it: defaults filled
 * on create and update, validation, and whether `status` may be set on create.
 */
export interface Strategy {
  prepareForCreate?(object: Obj, context: StrategyContext): void;
  /** `subresource` is the one written (`status`, `scale`), or '' for the object itself. */
  prepareForUpdate?(object: Obj, old: Obj, subresource: string): void;
  /**
   * Runs on create after admission, once `metadata.uid` is set and before validation (where
   * kube-apiserver's Job strategy generates a Job's selector from its uid).
   */
  completeCreate?(object: Obj): void;
  validate?(object: Obj, old: Obj | undefined): FieldError[];
  /** Create keeps the given status (Nodes, Namespaces, Events...); otherwise it is reset. */
  keepStatusOnCreate?: boolean;
  /**
   * A status update may change `metadata.annotations` too, as kube's
   * `deploymentStatusStrategy` lets it: the deployment controller writes its revision
   * annotation that way, so that it does not bump the Deployment's generation.
   */
  statusKeepsAnnotations?: boolean;
}

// Objects are plain JSON: strategies navigate them loosely and check what they read.
// biome-ignore lint/suspicious/noExplicitAny: strategies work on untyped JSON by design
export type Obj = KubernetesObject & Record<string, any>;
// biome-ignore lint/suspicious/noExplicitAny: as above
export type Json = Record<string, any>;
