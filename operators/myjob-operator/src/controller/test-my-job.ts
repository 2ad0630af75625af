import type { MyJob } from '../api/v1/my-job.js';

/**
 * Test support (not shipped: no entry imports it): a MyJob `job` in `default` (uid `job-uid`,
 * generation 1) running one `busybox` container, with `status` when given.
 */
export function testMyJob(status?: MyJob['status']): MyJob {
  return {
    apiVersion: 'myjob.github.com/v1',
    kind: 'MyJob',
    metadata: { name: 'job', namespace: 'default', uid: 'job-uid', generation: 1 },
    spec: { template: { spec: { containers: [{ name: 'main', image: 'busybox' }] } } },
    ...(status ? { status } : {}),
  } as MyJob;
}
