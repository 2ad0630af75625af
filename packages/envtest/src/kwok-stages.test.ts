import { podExitCodeAnnotation, podRunDurationAnnotation } from '@ops/apiserver';
import { describe, expect, it } from 'vitest';
import { kwokStages } from './kwok-stages.js';

describe('kwokStages', () => {
  const stages = kwokStages({ defaultRunDurationMs: 1500 });
  const byName = (name: string) => {
    const stage = stages.find((s) => s.metadata.name === name);
    if (!stage) throw new Error(`no stage ${name}`);
    return stage;
  };

  it('names each stage once, for Nodes and Pods', () => {
    expect(stages.map((s) => `${s.spec.resourceRef.kind}/${s.metadata.name}`)).toEqual([
      'Node/ops-node-ready',
      'Node/ops-node-heartbeat',
      'Pod/ops-pod-running',
      'Pod/ops-pod-succeeded',
      'Pod/ops-pod-failed',
      'Pod/ops-pod-delete',
    ]);
  });

  it('finishes Never/OnFailure Pods after the run-duration annotation, split on the exit code', () => {
    for (const name of ['ops-pod-succeeded', 'ops-pod-failed']) {
      const stage = byName(name);
      expect(stage.spec.delay).toEqual({
        durationMilliseconds: 1500,
        durationFrom: { expressionFrom: `.metadata.annotations["${podRunDurationAnnotation}"]` },
      });
      expect(stage.spec.selector.matchExpressions).toContainEqual({
        key: '.spec.restartPolicy',
        operator: 'In',
        values: ['Never', 'OnFailure'],
      });
    }
    const exitCode = `.metadata.annotations["${podExitCodeAnnotation}"] // "0"`;
    expect(byName('ops-pod-succeeded').spec.selector.matchExpressions).toContainEqual({
      key: exitCode,
      operator: 'In',
      values: ['0'],
    });
    expect(byName('ops-pod-failed').spec.selector.matchExpressions).toContainEqual({
      key: exitCode,
      operator: 'NotIn',
      values: ['0'],
    });
    expect(byName('ops-pod-succeeded').spec.next.statusTemplate).toContain('phase: Succeeded');
    expect(byName('ops-pod-failed').spec.next.statusTemplate).toContain('phase: Failed');
  });

  it('writes templates whose actions are closed', () => {
    for (const stage of stages) {
      const template = stage.spec.next.statusTemplate ?? '';
      expect(template.split('{{').length, stage.metadata.name).toBe(template.split('}}').length);
    }
  });
});
