import { describe, expect, it } from 'vitest';
import { openApiInfoVersion, serverVersion, versionInfo } from './discovery.js';

describe('/version', () => {
  it('reports Kubernetes 1.35 or later, whose resourceVersions clients may compare (KEP-5504)', () => {
    const version = versionInfo();
    expect(version.major).toBe('1');
    expect(Number.parseInt(version.minor ?? '', 10)).toBeGreaterThanOrEqual(35);
    expect(version.gitVersion).toBe(`v${version.major}.${version.minor}.0-ops.0`);
  });

  it('names the same release in the OpenAPI documents', () => {
    expect(openApiInfoVersion).toBe(`v${serverVersion.major}.${serverVersion.minor}.0`);
  });
});
