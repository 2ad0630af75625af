import type { Client } from './client.js';

/**
 * Writes to the `status` subresource of a {@link Client}'s kinds: `updateStatus` and
 * `patchStatus` (controller-runtime's `client.StatusWriter`). A reconciler that reports
 * status asks for one of these besides its `Reader`.
 */
export interface StatusWriter extends Pick<Client, 'updateStatus' | 'patchStatus'> {}
