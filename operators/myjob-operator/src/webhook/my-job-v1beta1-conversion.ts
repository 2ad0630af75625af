import type { Conversion } from '@ops/core/crd';
import type { myJobResource } from '../api/v1/my-job.js';

/**
 * v1beta1 <-> v1 (the hub) of MyJob. The two differ in one field: v1beta1's
 * `status.exitCodes` (`{<container>: <code>}`) is v1's `status.containers`
 * (`[{name, exitCode}]`, in the same order). Everything else is the same, so the conversion is
 * lossless both ways and keeps nothing in an annotation: `toHub(fromHub(hub))` is `hub`, and
 * `fromHub(toHub(spoke))` is `spoke`.
 */
export const myJobV1beta1Conversion: Conversion<typeof myJobResource, 'v1beta1'> = {
  toHub({ metadata, spec, status }) {
    if (status === undefined)
      return { apiVersion: 'myjob.github.com/v1', kind: 'MyJob', metadata, spec };
    const { exitCodes, ...rest } = status;
    return {
      apiVersion: 'myjob.github.com/v1',
      kind: 'MyJob',
      metadata,
      spec,
      status: {
        ...rest,
        ...(exitCodes === undefined
          ? {}
          : {
              containers: Object.entries(exitCodes).map(([name, exitCode]) => ({
                name,
                exitCode,
              })),
            }),
      },
    };
  },
  fromHub({ metadata, spec, status }) {
    if (status === undefined)
      return { apiVersion: 'myjob.github.com/v1beta1', kind: 'MyJob', metadata, spec };
    const { containers, ...rest } = status;
    return {
      apiVersion: 'myjob.github.com/v1beta1',
      kind: 'MyJob',
      metadata,
      spec,
      status: {
        ...rest,
        ...(containers === undefined
          ? {}
          : {
              exitCodes: Object.fromEntries(
                containers.map(({ name, exitCode }) => [name, exitCode]),
              ),
            }),
      },
    };
  },
};
