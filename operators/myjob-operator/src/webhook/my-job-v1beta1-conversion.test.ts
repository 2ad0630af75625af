import { ConversionError } from '@ops/core/crd';
import { describe, expect, it } from 'vitest';
import { myJobConversion } from './my-job-conversion.js';

const metadata = { name: 'job', namespace: 'default', uid: 'job-uid', generation: 2 };
const spec = { template: { spec: { containers: [{ name: 'main', image: 'busybox' }] } } };
const shared = {
  phase: 'completed',
  observedGeneration: 2,
  podPhase: 'Failed',
  podUID: 'pod-uid',
  startTime: '2026-01-01T00:00:01Z',
  completionTime: '2026-01-01T00:00:04Z',
};

const hub = {
  apiVersion: 'myjob.github.com/v1',
  kind: 'MyJob',
  metadata,
  spec,
  status: {
    ...shared,
    containers: [
      { name: 'main', exitCode: 3 },
      { name: 'sidecar', exitCode: 0 },
    ],
  },
};
const spoke = {
  apiVersion: 'myjob.github.com/v1beta1',
  kind: 'MyJob',
  metadata,
  spec,
  status: { ...shared, exitCodes: { main: 3, sidecar: 0 } },
};

describe('myJobConversion (v1beta1 <-> v1, the hub)', () => {
  it("turns v1's status.containers into v1beta1's status.exitCodes, the rest unchanged", () => {
    expect(myJobConversion.convert(hub, 'myjob.github.com/v1beta1')).toEqual(spoke);
  });

  it("turns v1beta1's status.exitCodes into v1's status.containers, in the same order", () => {
    expect(myJobConversion.convert(spoke, 'myjob.github.com/v1')).toEqual(hub);
  });

  it('converts a MyJob without status, or without exit codes yet, and adds none', () => {
    const fresh = { ...hub, status: undefined };
    delete fresh.status;
    expect(myJobConversion.convert(fresh, 'myjob.github.com/v1beta1')).toEqual({
      ...fresh,
      apiVersion: 'myjob.github.com/v1beta1',
    });
    const running = { ...spoke, status: { phase: 'running', podPhase: 'Running' } };
    expect(myJobConversion.convert(running, 'myjob.github.com/v1')).toEqual({
      ...running,
      apiVersion: 'myjob.github.com/v1',
    });
  });

  it('is lossless both ways, with no annotation', () => {
    const there = myJobConversion.convert(hub, 'myjob.github.com/v1beta1');
    expect(there.metadata?.annotations).toBeUndefined();
    expect(myJobConversion.convert(there, 'myjob.github.com/v1')).toEqual(hub);
    const back = myJobConversion.convert(spoke, 'myjob.github.com/v1');
    expect(myJobConversion.convert(back, 'myjob.github.com/v1beta1')).toEqual(spoke);
  });

  it('refuses a version MyJob does not have, naming the object', () => {
    expect(() => myJobConversion.convert(hub, 'myjob.github.com/v2')).toThrow(ConversionError);
    expect(() => myJobConversion.convert(hub, 'myjob.github.com/v2')).toThrow(/default\/job/);
  });
});
