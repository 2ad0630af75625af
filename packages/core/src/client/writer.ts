import type { Client } from './client.js';

/**
 * The writing half of a {@link Client}: `create`, `update`, `patch`, `apply`, `delete` and
 * `deleteAllOf`, always sent to the API server (controller-runtime's `client.Writer`). The
 * status subresource is the `StatusWriter`'s.
 */
export interface Writer
  extends Pick<Client, 'create' | 'update' | 'patch' | 'apply' | 'delete' | 'deleteAllOf'> {}
