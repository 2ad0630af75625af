import type { KubernetesObject } from '@ops/api';
import type { AuthenticatedUser } from '../auth/index.js';
import type { ResourceType } from '../registry/resource-type.js';

/** What an admission step is told about a write. */
export interface AdmissionAttributes {
  type: ResourceType;
  subresource: string;
  operation: 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';
  namespace: string;
  name: string;
  user: AuthenticatedUser;
  dryRun: boolean;
  /** The request's options object (CreateOptions, UpdateOptions, DeleteOptions...). */
  options: Record<string, unknown>;
  /** Where admission appends warnings for the client (`Warning` headers), when the caller wants them. */
  warnings?: string[];
}

/**
 * Admission, as kube-apiserver runs it around every write: `mutate` first (it may return a
 * changed object), then schema validation by the server, then `validate`. Both throw a
 * StatusError to deny.
 */
export interface Admission {
  mutate(
    attributes: AdmissionAttributes,
    object: KubernetesObject,
    old: KubernetesObject | undefined,
  ): Promise<KubernetesObject>;
  validate(
    attributes: AdmissionAttributes,
    object: KubernetesObject,
    old: KubernetesObject | undefined,
  ): Promise<void>;
}

/** Admission that admits everything unchanged. */
export const noAdmission: Admission = {
  mutate: async (_attributes, object) => object,
  validate: async () => undefined,
};
