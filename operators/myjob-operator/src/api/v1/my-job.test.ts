import { childNameBudget, childNameProblems } from '@ops/core/meta';
import { describe, expect, it } from 'vitest';
import { podForMyJob } from '../../controller/pod-for-my-job.js';
import { testMyJob } from '../../controller/test-my-job.js';
import { myJobChildNames } from './my-job.js';

describe('myJobChildNames', () => {
  it('leaves the full 253 characters kube allows a MyJob name: nothing needs refusing', () => {
    expect(childNameBudget(myJobChildNames)).toBe(253);
    const longest = `${'a'.repeat(126)}.${'b'.repeat(126)}`;
    expect(childNameProblems({ kind: 'MyJob', name: longest }, myJobChildNames)).toEqual([]);
  });

  it('lists every name the Pod takes from its MyJob', () => {
    const myJob = testMyJob();
    myJob.spec.template.metadata = { labels: { team: 'batch' } };
    const pod = podForMyJob(myJob);
    expect(pod.metadata?.name).toBe(myJob.metadata.name);
    // No label value comes from the name: the Pod's labels are the template's.
    expect(pod.metadata?.labels).toEqual({ team: 'batch' });
  });
});
