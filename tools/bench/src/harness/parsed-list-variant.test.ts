import { afterEach, describe, expect, it, vi } from 'vitest';
import { LocalBenchServer } from './local-bench-server.js';
import { parsedListVariant } from './parsed-list-variant.js';
import { RawHttp } from './raw-http.js';

let server: LocalBenchServer | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await server?.stop();
  server = undefined;
});

describe('parsedListVariant', () => {
  it('parses a list too long for one string in the fewest pages that fit, keeping every item', async () => {
    server = await LocalBenchServer.start();
    await server.seedShape('configmaps', 'paged', 0, 10);
    // 10 Helm ConfigMaps are about 25 KB: with 8 KB strings, 4 pages of 3.
    const get = vi.spyOn(RawHttp.prototype, 'get');
    for (const fetchTimed of [false, true]) {
      get.mockClear();
      const variant = parsedListVariant({
        plural: 'configmaps',
        fetchTimed,
        maxStringLength: 8_000,
      });
      const cache = await variant.sync(server, 'paged', 10);
      expect(cache.objects()).toBe(10);
      expect(cache.ms).toBeGreaterThan(0);
      // The whole list once (too long), then its pages.
      expect(get.mock.calls.map(([path]) => path)).toEqual([
        '/api/v1/namespaces/paged/configmaps',
        '/api/v1/namespaces/paged/configmaps?limit=3',
        expect.stringMatching(/\?limit=3&continue=/),
        expect.stringMatching(/\?limit=3&continue=/),
        expect.stringMatching(/\?limit=3&continue=/),
      ]);
      await cache.stop();
      expect(cache.objects()).toBe(0);
    }
    get.mockClear();
    const whole = await parsedListVariant({ plural: 'configmaps' }).sync(server, 'paged', 10);
    expect(whole.objects()).toBe(10);
    expect(get).toHaveBeenCalledTimes(1);
  });
});
