import type { Client } from './client.js';

/**
 * The reading half of a {@link Client}: `get` and `list`, served from the manager's cache
 * for the kinds it has. Ask for a `Reader` where code only reads, as controller-runtime's
 * `client.Reader`.
 */
export interface Reader extends Pick<Client, 'get' | 'list'> {}
