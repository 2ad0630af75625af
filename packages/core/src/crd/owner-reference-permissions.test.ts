import { describe, expect, it } from 'vitest';
import { PolicyRuleError } from '../errors/policy-rule-error.js';
import { mergePolicyRules } from './cluster-role.js';
import type { ControllerKinds } from './owner-reference-permissions.js';
import { ownerReferencePermissions } from './owner-reference-permissions.js';

const balancer = { group: 'exposer.hliangzhao.io', kind: 'Balancer', plural: 'balancers' };
const myJob = { group: 'myjob.github.com', kind: 'MyJob', plural: 'myjobs' };

function controller(
  forKind: { apiVersion: string; kind: string },
  owns: Array<[string, string, boolean?]>,
  name = forKind.kind.toLowerCase(),
): ControllerKinds {
  return {
    name,
    for: forKind,
    owns: owns.map(([apiVersion, kind, onlyController]) => ({
      kind: { apiVersion, kind },
      onlyController: onlyController ?? true,
    })),
  };
}

describe('ownerReferencePermissions', () => {
  it('grants update on <plural>/finalizers of the for() kind to a controller that owns with controller references', () => {
    const rules = ownerReferencePermissions(
      [
        controller({ apiVersion: 'exposer.hliangzhao.io/v1alpha1', kind: 'Balancer' }, [
          ['v1', 'Service'],
          ['v1', 'ConfigMap'],
          ['apps/v1', 'Deployment'],
        ]),
      ],
      [balancer],
    );
    expect(rules).toEqual([
      {
        apiGroups: ['exposer.hliangzhao.io'],
        resources: ['balancers/finalizers'],
        verbs: ['update'],
      },
    ]);
  });

  it('adds nothing for a controller that owns nothing or owns without controller references', () => {
    expect(
      ownerReferencePermissions(
        [
          controller({ apiVersion: 'myjob.github.com/v1beta1', kind: 'MyJob' }, []),
          controller({ apiVersion: 'exposer.hliangzhao.io/v1alpha1', kind: 'Balancer' }, [
            ['v1', 'Service', false],
          ]),
        ],
        [myJob, balancer],
      ),
    ).toEqual([]);
  });

  it('gives one rule per owning controller, in the for() kind group (the core group for a built-in kind), matching by group and kind whatever the version', () => {
    const pod = { group: '', kind: 'Pod', plural: 'pods' };
    const rules = ownerReferencePermissions(
      [
        controller({ apiVersion: 'myjob.github.com/v2', kind: 'MyJob' }, [['v1', 'Pod']]),
        controller({ apiVersion: 'v1', kind: 'Pod' }, [['v1', 'ConfigMap']], 'pod'),
        controller(
          { apiVersion: 'myjob.github.com/v1beta1', kind: 'MyJob' },
          [['v1', 'Secret']],
          'my-job-secrets',
        ),
      ],
      [myJob, pod],
    );
    expect(rules).toEqual([
      { apiGroups: ['myjob.github.com'], resources: ['myjobs/finalizers'], verbs: ['update'] },
      { apiGroups: [''], resources: ['pods/finalizers'], verbs: ['update'] },
      { apiGroups: ['myjob.github.com'], resources: ['myjobs/finalizers'], verbs: ['update'] },
    ]);
  });

  it('leaves the declared rules least-privilege: merged, it adds exactly the finalizers rule', () => {
    const declared = [
      { apiGroups: ['myjob.github.com'], resources: ['myjobs'], verbs: ['list', 'watch'] },
      { apiGroups: ['myjob.github.com'], resources: ['myjobs/status'], verbs: ['patch'] },
      { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch', 'create'] },
    ];
    const derived = ownerReferencePermissions(
      [controller({ apiVersion: 'myjob.github.com/v1beta1', kind: 'MyJob' }, [['v1', 'Pod']])],
      [myJob],
    );
    expect(mergePolicyRules([...declared, ...derived])).toEqual([
      { apiGroups: [''], resources: ['pods'], verbs: ['create', 'get', 'list', 'watch'] },
      { apiGroups: ['myjob.github.com'], resources: ['myjobs'], verbs: ['list', 'watch'] },
      { apiGroups: ['myjob.github.com'], resources: ['myjobs/finalizers'], verbs: ['update'] },
      { apiGroups: ['myjob.github.com'], resources: ['myjobs/status'], verbs: ['patch'] },
    ]);
  });

  it('refuses a for() kind whose plural it does not know, naming the controller, the kind and the fix', () => {
    const call = () =>
      ownerReferencePermissions(
        [
          controller(
            { apiVersion: 'apps/v1', kind: 'Deployment' },
            [['v1', 'ConfigMap']],
            'deploy',
          ),
        ],
        [balancer],
      );
    expect(call).toThrow(PolicyRuleError);
    expect(call).toThrow(
      /controller deploy reconciles Deployment \(apps\/v1\) and owns ConfigMap .*not among the custom resources given \(Balancer\.exposer\.hliangzhao\.io\): list its definition/,
    );
  });
});
