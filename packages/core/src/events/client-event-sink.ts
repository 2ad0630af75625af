import type { KubernetesObject } from '@ops/api';
import type { Client } from '../client/client.js';
import type { EventSink } from './core-event.js';

/** An {@link EventSink} writing core/v1 Events through `client` (a create, or a merge patch). */
export function clientEventSink(client: Pick<Client, 'create' | 'patch'>): EventSink {
  return {
    create: (event) => client.create(event as unknown as KubernetesObject),
    patch: (namespace, name, patch) =>
      client.patch(
        { apiVersion: 'v1', kind: 'Event', metadata: { namespace, name } },
        patch,
        'merge',
      ),
  };
}
