import type { ResourceDescriptor } from './resource-descriptor.js';

/**
 * Maps an apiVersion and kind to where the API serves it, as controller-runtime's
 * RESTMapper does.
 *
 * Contract: resolves for every kind the server serves (custom resources included, even those
 * created after the mapper was built: an unknown kind triggers one fresh discovery before
 * failing); rejects with an error of reason `NotFound`-like wording naming the kind and
 * apiVersion and suggesting to install the CRD when the server does not serve it.
 */
export interface RestMapper {
  resourceFor(apiVersion: string, kind: string): Promise<ResourceDescriptor>;
}
