import { describe, expect, it } from 'vitest';
import type { MyJob } from '../api/v1/my-job.js';
import { podForMyJob } from './pod-for-my-job.js';

describe('podForMyJob', () => {
  it("builds the MyJob's Pod from its template, controlled by the MyJob", () => {
    const myJob = {
      apiVersion: 'myjob.github.com/v1',
      kind: 'MyJob',
      metadata: { name: 'job', namespace: 'team', uid: 'job-uid' },
      spec: {
        template: {
          metadata: { name: 'pi', labels: { app: 'pi' }, annotations: { note: 'x' } },
          spec: { containers: [{ name: 'pi', image: 'perl' }], restartPolicy: 'Never' },
        },
      },
    } as MyJob;
    const pod = podForMyJob(myJob);
    expect(pod).toEqual({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: 'job',
        namespace: 'team',
        labels: { app: 'pi' },
        annotations: { note: 'x' },
        ownerReferences: [
          {
            apiVersion: 'myjob.github.com/v1',
            kind: 'MyJob',
            name: 'job',
            uid: 'job-uid',
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
      },
      spec: { containers: [{ name: 'pi', image: 'perl' }], restartPolicy: 'Never' },
    });
    expect(myJob.spec.template.spec.containers).toHaveLength(1);
  });
});
