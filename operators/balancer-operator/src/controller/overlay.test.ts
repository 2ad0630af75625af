import { describe, expect, it } from 'vitest';
import { overlay } from './overlay.js';

describe('overlay', () => {
  it("keeps the fields the API server defaulted, and changes only the operator's", () => {
    const live = {
      spec: {
        containers: [{ name: 'nginx', image: 'nginx:1', imagePullPolicy: 'IfNotPresent' }],
        dnsPolicy: 'ClusterFirst',
      },
    };
    expect(
      overlay(structuredClone(live), {
        spec: { containers: [{ name: 'nginx', image: 'nginx:1' }] },
      }),
    ).toEqual(live);
    expect(
      overlay(structuredClone(live), {
        spec: { containers: [{ name: 'nginx', image: 'nginx:2' }] },
      }).spec.containers[0],
    ).toEqual({ name: 'nginx', image: 'nginx:2', imagePullPolicy: 'IfNotPresent' });
  });

  it('replaces an array whose length changed, and removes a field set to undefined', () => {
    const live = { ports: [{ port: 1, extra: true }], probe: { tcpSocket: { port: 1 } } };
    expect(overlay(live, { ports: [{ port: 1 }, { port: 2 }], probe: undefined })).toEqual({
      ports: [{ port: 1 }, { port: 2 }],
    });
  });
});
