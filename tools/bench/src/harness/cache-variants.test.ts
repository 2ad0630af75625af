import { KubeConfig } from '@kubernetes/client-node';
import { BodyTooLongError, KubeTransport } from '@ops/core/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { opsInformerVariant } from './cache-variants.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('opsInformerVariant', () => {
  it('fails at once, with the informer error, when the list is too long for a string', async () => {
    vi.spyOn(KubeTransport.prototype, 'request').mockRejectedValue(
      new BodyTooLongError(600_000_000, 'GET /api/v1/namespaces/bench/pods'),
    );
    const endpoint = {
      url: 'http://127.0.0.1:1',
      kubeconfigPath: '',
      kubeConfig: () => {
        const config = new KubeConfig();
        config.loadFromOptions({
          clusters: [{ name: 'c', server: 'http://127.0.0.1:1' }],
          users: [{ name: 'u', token: 't' }],
          contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
          currentContext: 'x',
        });
        return config;
      },
    };
    // The sync's own timeout (60 s) is longer than this test's: only giving up at the first
    // failure passes.
    await expect(
      opsInformerVariant({ pageSize: 1_000_000 }).sync(endpoint, 'bench', 100_000, 60_000),
    ).rejects.toThrow(
      /list of .* failed: the answer to GET \/api\/v1\/namespaces\/bench\/pods is 600,000,000 bytes/,
    );
  });
});
