import { describe, expect, it } from 'vitest';
import { serverSetFieldsOf } from './server-set-fields.js';

describe('serverSetFieldsOf', () => {
  it('names what a Namespace or Service create gets from the server, nothing for others', () => {
    expect(serverSetFieldsOf('v1', 'Namespace', {}).toFieldsV1()).toEqual({
      'f:spec': { 'f:finalizers': {} },
    });
    const service = serverSetFieldsOf('v1', 'Service', { spec: { clusterIP: '10.96.0.1' } });
    expect(service.has(['f:spec', 'f:clusterIPs'])).toBe(true);
    expect(serverSetFieldsOf('v1', 'ConfigMap', {}).isEmpty()).toBe(true);
  });

  it("leaves a headless Service's clusterIP to its writer", () => {
    const headless = serverSetFieldsOf('v1', 'Service', { spec: { clusterIP: 'None' } });
    expect(headless.has(['f:spec', 'f:clusterIP'])).toBe(false);
    expect(headless.has(['f:spec', 'f:clusterIPs'])).toBe(true);
  });
});
