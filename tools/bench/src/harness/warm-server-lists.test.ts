import { afterEach, describe, expect, it } from 'vitest';
import { LocalBenchServer } from './local-bench-server.js';
import { warmServerLists } from './warm-server-lists.js';

let server: LocalBenchServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

describe('warmServerLists', () => {
  it('reads the collection once unpaged and once page by page to the end', async () => {
    server = await LocalBenchServer.start();
    await server.seedConfigMaps('warm', 'cm', 25);
    const warmed = await warmServerLists(server, '/api/v1/namespaces/warm/configmaps', 10);
    expect(warmed).toEqual({ unpagedItems: 25, pagedItems: 25, pages: 3 });
  });

  it('receives an unpaged list longer than a string can be without parsing it, and still walks its pages', async () => {
    server = await LocalBenchServer.start();
    await server.seedConfigMaps('warm', 'cm', 25);
    // 25 ConfigMaps are more than 1,000 bytes of JSON: too long for a string of 1,000.
    const warmed = await warmServerLists(server, '/api/v1/namespaces/warm/configmaps', 10, 1_000);
    expect(warmed).toEqual({ unpagedItems: undefined, pagedItems: 25, pages: 3 });
  });

  it('refuses a page size that is not a positive integer, naming it', async () => {
    const endpoint = {
      url: 'http://127.0.0.1:1',
      kubeconfigPath: '',
      kubeConfig: () => {
        throw new Error('not reached');
      },
    };
    await expect(warmServerLists(endpoint, '/api/v1/configmaps', 0)).rejects.toThrow(
      'pageSize must be a positive integer, got 0',
    );
  });
});
