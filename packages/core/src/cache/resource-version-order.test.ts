import { describe, expect, it } from 'vitest';
import {
  compareResourceVersions,
  detectResourceVersionOrder,
  resourceVersionOrderOf,
} from './resource-version-order.js';

describe('compareResourceVersions', () => {
  it('compares decimal integers by value, however long', () => {
    expect(compareResourceVersions('9', '10')).toBeLessThan(0);
    expect(
      compareResourceVersions('123456789012345678901', '123456789012345678900'),
    ).toBeGreaterThan(0);
    expect(compareResourceVersions('42', '42')).toBe(0);
  });

  it('refuses what is not a decimal integer', () => {
    expect(compareResourceVersions('abc', '1')).toBeUndefined();
    expect(compareResourceVersions('1', '01')).toBeUndefined();
    expect(compareResourceVersions('', '1')).toBeUndefined();
  });
});

describe('resourceVersionOrderOf', () => {
  it('is comparable from Kubernetes 1.35 (KEP-5504), exact before and for odd documents', () => {
    expect(resourceVersionOrderOf({ major: '1', minor: '35' })).toBe('comparable');
    expect(resourceVersionOrderOf({ major: '1', minor: '37+' })).toBe('comparable');
    expect(resourceVersionOrderOf({ major: '1', minor: '34' })).toBe('exact');
    expect(resourceVersionOrderOf({ major: '1', minor: '33' })).toBe('exact');
    expect(resourceVersionOrderOf({ gitVersion: 'v1.36.0' })).toBe('exact');
    expect(resourceVersionOrderOf('1.35')).toBe('exact');
  });
});

describe('detectResourceVersionOrder', () => {
  it("reads the server's /version, and answers exact when it cannot", async () => {
    const answering = (status: number, text: string) => ({
      request: async (request: { path: string }) => {
        expect(request.path).toBe('/version');
        return { status, headers: {}, text };
      },
    });
    expect(await detectResourceVersionOrder(answering(200, '{"major":"1","minor":"36"}'))).toBe(
      'comparable',
    );
    expect(await detectResourceVersionOrder(answering(403, '{}'))).toBe('exact');
    expect(await detectResourceVersionOrder(answering(200, 'not json'))).toBe('exact');
    expect(
      await detectResourceVersionOrder({
        request: async () => {
          throw new Error('connection refused');
        },
      }),
    ).toBe('exact');
  });
});
