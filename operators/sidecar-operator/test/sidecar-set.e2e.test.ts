// The sidecar-operator end to end, as it runs in a cluster (see sidecar-harness.ts): the CRD
// from config/crd/bases, the operator as its ServiceAccount under the RBAC of
// `kubectl kustomize config/default`, both webhooks served over TLS from this process and
// called by the API server through the generated configurations. `pnpm test` runs it on the
// local API server (its ReplicaSet controller creates the Deployment's Pods, its simulated
// kubelet makes them Ready); `pnpm test:binaries` on the cluster plane (kube-apiserver,
// kube-controller-manager, kube-scheduler, kwok nodes).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { deployments, mutatingWebhookConfigurations, type Pod, pods } from '@ops/core';
import { eventually } from '@ops/envtest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import type { SidecarSet } from '../src/api/v1alpha1/sidecar-set.js';
import { sidecarHash, sidecarHashAnnotation } from '../src/webhook/sidecar-hash.js';
import { mutatingConfiguration, operatorRoot, SidecarHarness } from './sidecar-harness.js';

let harness: SidecarHarness;
beforeAll(async () => {
  harness = await SidecarHarness.start();
  await harness.startOperator();
}, 120_000);
afterAll(async () => {
  await harness?.stop();
});

/** OPERATORS.md's sample, verbatim. */
const operatorsMdSample = `apiVersion: apps.chinalhr.github.io/v1alpha1
kind: SidecarSet
metadata: {name: logging}
spec:
  selector: {matchLabels: {app: web}}
  containers:
  - name: log-agent
    image: busybox:1.36
    command: ["sh", "-c", "tail -f /dev/null"]
`;

const names = (pod: Pod) => (pod.spec?.containers ?? []).map((container) => container.name);
const hashes = (pod: Pod) =>
  JSON.parse(pod.metadata?.annotations?.[sidecarHashAnnotation] ?? '{}') as Record<string, string>;
const status = async (name: string) => {
  const { matchedPods, updatedPods, readyPods } = (await harness.sidecarSet(name)).status ?? {};
  return { matchedPods, updatedPods, readyPods };
};
const ready = (sidecarSet: SidecarSet) =>
  sidecarSet.status?.conditions?.find((condition) => condition.type === 'Ready');
// Meets the "restricted" Pod Security Standard, which the operator's own namespace enforces
// (config/manager labels it; kube-apiserver's PodSecurity admission refuses other Pods there).
const bare = (name: string, labels: Record<string, string>, namespace = 'default'): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace, labels },
  spec: {
    securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
    containers: [
      {
        name: 'main',
        image: 'nginx:1.25',
        securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
      },
    ],
  },
});
const denial = (promise: Promise<unknown>) =>
  promise.then(
    () => '',
    (error: Error) => error.message,
  );

describe('sidecar-operator, end to end', () => {
  let sample: SidecarSet;

  it("injects OPERATORS.md's sample, applied verbatim with kubectl, into every Pod of a Deployment of app: web, and counts them", async () => {
    const text = await readFile(
      join(operatorRoot, 'config', 'samples', 'apps_v1alpha1_sidecarset.yaml'),
      'utf8',
    );
    sample = YAML.parse(operatorsMdSample) as SidecarSet;
    // config/samples holds the same object, in another layout.
    expect(YAML.parse(text)).toEqual(sample);
    expect(await harness.kubectl(['apply', '-f', '-'], operatorsMdSample)).toContain(
      'sidecarset.apps.chinalhr.github.io/logging created',
    );
    await harness.createDeployment('web', 'web', 2);
    const pods = await eventually(async () => {
      const found = await harness.podsOf('web');
      return found.length === 2 && found;
    });
    for (const pod of pods) {
      expect(names(pod)).toEqual(['web', 'log-agent']);
      expect(pod.spec?.containers?.[1]).toMatchObject({
        image: 'busybox:1.36',
        command: ['sh', '-c', 'tail -f /dev/null'],
        env: [{ name: 'IS_INJECTED', value: 'true' }],
      });
      expect(hashes(pod)).toEqual({ logging: sidecarHash(sample) });
    }
    await eventually(
      async () =>
        JSON.stringify(await status('logging')) ===
        JSON.stringify({ matchedPods: 2, updatedPods: 2, readyPods: 2 }),
      { description: 'logging counts 2 matched, updated and ready Pods' },
    );
    const reconciled = await harness.sidecarSet('logging');
    expect(ready(reconciled)).toMatchObject({ status: 'True', reason: 'AllPodsUpdated' });
    expect(reconciled.status?.observedGeneration).toBe(reconciled.metadata.generation);
    const table = await harness.kubectl(['get', 'sidecarsets']);
    expect(table.split('\n')[0]).toMatch(/^NAME\s+MATCHED\s+UPDATED\s+READY\s+AGE$/);
    expect(table).toMatch(/\nlogging\s+2\s+2\s+2\s+\d+s\n/);
  });

  it('leaves Pods without the label, and Pods in kube-system and its own namespace, untouched', async () => {
    const other = await harness.admin.create(bare('db-0', { app: 'db' }));
    expect(names(other)).toEqual(['main']);
    expect(other.metadata?.annotations?.[sidecarHashAnnotation]).toBeUndefined();
    for (const namespace of ['kube-system', 'sidecar-operator-system']) {
      const excluded = await harness.admin.create(bare('web-excluded', { app: 'web' }, namespace));
      expect(names(excluded)).toEqual(['main']);
      await harness.admin.delete(excluded);
    }
  });

  it('denies a SidecarSet without a selector or with an empty one, as Invalid on spec.selector', async () => {
    const none =
      'apiVersion: apps.chinalhr.github.io/v1alpha1\nkind: SidecarSet\nmetadata: {name: none}\nspec: {containers: []}\n';
    expect(await denial(harness.kubectl(['apply', '-f', '-'], none))).toBe(
      'The SidecarSet "none" is invalid: spec.selector: Required value: no selector defined for sidecarset',
    );
    const empty = none
      .replace('{name: none}', '{name: empty}')
      .replace('{containers: []}', '{selector: {}}');
    expect(await denial(harness.kubectl(['apply', '-f', '-'], empty))).toBe(
      'The SidecarSet "empty" is invalid: spec.selector: Invalid value: {}: empty selector is not valid for sidecarset.',
    );
    // The API error itself carries the webhook's name and Kubernetes' Invalid message.
    const error = await denial(
      harness.admin.create({
        apiVersion: 'apps.chinalhr.github.io/v1alpha1',
        kind: 'SidecarSet',
        metadata: { name: 'api' },
        spec: {},
      } as SidecarSet),
    );
    expect(error).toContain(
      'admission webhook "vsidecarset.kb.io" denied the request: SidecarSet.apps.chinalhr.github.io "api" is invalid: spec.selector: Required value: no selector defined for sidecarset',
    );
  });

  it('lets a second SidecarSet inject too, resolving a name clash without a duplicate container', async () => {
    await harness.admin.create({
      apiVersion: 'apps.chinalhr.github.io/v1alpha1',
      kind: 'SidecarSet',
      metadata: { name: 'metrics' },
      spec: {
        selector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['web', 'api'] }] },
        containers: [
          { name: 'exporter', image: 'prom/statsd-exporter' },
          { name: 'log-agent', image: 'fluent-bit' },
        ],
      },
    } as SidecarSet);
    const pod = await eventually(async () => {
      const created = await harness.admin.create(bare('both', { app: 'web' }));
      // The webhook reads the new SidecarSet once its informer has seen it.
      if (names(created).includes('exporter')) return created;
      await harness.admin.delete(created);
      return false;
    });
    expect(names(pod)).toEqual(['main', 'log-agent', 'exporter']);
    expect(pod.spec?.containers?.[1]?.image).toBe('busybox:1.36');
    expect(Object.keys(hashes(pod))).toEqual(['logging', 'metrics']);
    // metrics' log-agent clashes with logging's (which sorts first): kubectl shows why.
    const output = await harness.kubectlOutput(
      ['create', '-f', '-'],
      JSON.stringify(bare('warned', { app: 'web' })),
    );
    expect(output.stdout).toContain('pod/warned created');
    expect(output.stderr).toContain(
      'Warning: SidecarSet metrics: container "log-agent" not injected, the name is taken by SidecarSet logging',
    );
    await eventually(async () => (await status('metrics')).matchedPods === 4);
  });

  it('reports UPDATED below MATCHED after the containers change, until the Pods are recreated', async () => {
    await harness.admin.patch(
      {
        apiVersion: 'apps.chinalhr.github.io/v1alpha1',
        kind: 'SidecarSet',
        metadata: { name: 'logging' },
      },
      { spec: { containers: [{ name: 'log-agent', image: 'busybox:1.37' }] } },
      'merge',
    );
    const outdated = await eventually(async () => {
      const current = await harness.sidecarSet('logging');
      return current.status?.updatedPods === 0 && current;
    });
    expect(outdated.status?.matchedPods).toBe(4);
    expect(ready(outdated)).toMatchObject({ status: 'False', reason: 'PodsNotUpdated' });
    expect(ready(outdated)?.message).toContain(
      '4 of 4 matched Pods do not run the current sidecar containers',
    );
    const described = await harness.kubectl([
      'get',
      'sidecarset',
      'logging',
      '-o',
      'jsonpath={.status.conditions[0].reason}',
    ]);
    expect(described).toBe('PodsNotUpdated');
    // Running Pods were not touched.
    for (const pod of await harness.podsOf('web'))
      expect(pod.spec?.containers?.find((c) => c.name === 'log-agent')?.image).toBe('busybox:1.36');
    // Recreate them: a rollout restart of the Deployment, the two bare Pods deleted.
    await harness.kubectl(['rollout', 'restart', 'deployment/web']);
    for (const name of ['both', 'warned'])
      await harness.admin.delete({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name, namespace: 'default' },
      });
    await eventually(
      async () => {
        const counts = await status('logging');
        return counts.matchedPods === 2 && counts.updatedPods === 2 && counts.readyPods === 2;
      },
      { timeoutMs: 60_000, description: 'the restarted Pods run the new containers' },
    );
    for (const pod of (await harness.podsOf('web')).filter((p) => !p.metadata?.deletionTimestamp))
      expect(pod.spec?.containers?.find((c) => c.name === 'log-agent')?.image).toBe('busybox:1.37');
    expect(ready(await harness.sidecarSet('logging'))?.reason).toBe('AllPodsUpdated');
  });

  it('writes nothing while nothing changes', async () => {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const settled = harness.writes.length;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(harness.writes.slice(settled)).toEqual([]);
  });

  it('with the webhook down: a matching Pod is refused (Fail, the default), created bare under the Ignore overlay, and kube-system is left out', async () => {
    await harness.stopOperator();
    const configuration = await harness.admin.get(
      mutatingWebhookConfigurations,
      mutatingConfiguration,
    );
    expect(configuration.webhooks?.[0]?.failurePolicy).toBe('Fail');
    // Refused, so no Pod of a matching SidecarSet starts without its sidecar.
    const refused = await denial(harness.admin.create(bare('refused', { app: 'web' })));
    expect(refused).toContain('failed calling webhook "mpod.kb.io"');
    await expect(harness.admin.get(pods, 'refused', 'default')).rejects.toMatchObject({
      code: 404,
    });
    // kube-system stays out of the webhook's reach even so.
    const system = await harness.admin.create(bare('system', { app: 'web' }, 'kube-system'));
    expect(names(system)).toEqual(['main']);

    // The other choice, config/webhook-fail-open (failurePolicy: Ignore), as a cluster
    // deployed with it sees it: the Pod is created without its sidecar.
    const setPolicy = (failurePolicy: 'Fail' | 'Ignore') =>
      harness.admin.patch(
        configuration,
        {
          webhooks: (configuration.webhooks ?? []).map(({ name }) => ({ name, failurePolicy })),
        },
        'strategic',
      );
    await setPolicy('Ignore');
    try {
      // kube-apiserver picks the patched configuration up from a watch, a moment later.
      const uninjected = await eventually(async () => {
        const created = await harness.admin.create(bare('while-down', { app: 'web' })).then(
          (pod) => pod as Pod,
          () => undefined,
        );
        return created ?? false;
      });
      expect(names(uninjected)).toEqual(['main']);
    } finally {
      await setPolicy('Fail');
    }
  });

  it('admits the refused Pod with its sidecar once the operator is up, and counts the bare one too', async () => {
    await harness.startOperator();
    // The webhook answers again: what was refused while it was down is now injected.
    const admitted = await eventually(async () => {
      const created = await harness.admin.create(bare('refused', { app: 'web' })).then(
        (pod) => pod as Pod,
        () => undefined,
      );
      return created ?? false;
    });
    // logging's sidecar, and the exporter of metrics (whose log-agent lost the name clash).
    expect(names(admitted)).toEqual(['main', 'log-agent', 'exporter']);
    expect(
      admitted.spec?.containers?.find((container) => container.name === 'log-agent')?.env,
    ).toContainEqual({ name: 'IS_INJECTED', value: 'true' });
    // A new operator process: it starts, syncs its caches and reconciles first. Seconds alone,
    // longer when CI's machine is busy.
    await eventually(
      async () => {
        const counts = await status('logging');
        return counts.matchedPods === 4 && counts.updatedPods === 3;
      },
      { timeoutMs: 30_000, description: 'the restarted operator counts 4 matched, 3 updated' },
    );
    const current = await harness.sidecarSet('logging');
    expect(ready(current)).toMatchObject({ status: 'False', reason: 'PodsNotUpdated' });
    expect(ready(current)?.message).toMatch(/^1 of 4 matched Pods/);
    for (const name of ['while-down', 'refused'])
      await harness.admin.delete({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name, namespace: 'default' },
      });
    await eventually(async () => {
      const counts = await status('logging');
      return counts.matchedPods === 2 && counts.updatedPods === 2;
    });
    // The Deployment gone, its Pods go (garbage collection), and so do the counts.
    await harness.admin.delete(await harness.admin.get(deployments, 'web', 'default'), {
      propagationPolicy: 'Foreground',
    });
    await eventually(async () => (await status('logging')).matchedPods === 0, {
      timeoutMs: 60_000,
    });
    expect(ready(await harness.sidecarSet('logging'))?.reason).toBe('NoMatchingPods');
    // Room for its waits: the restart (30 s) and garbage collection (60 s).
  }, 120_000);

  it('applies a SidecarSet whose containers leave out every optional field, and injects it', async () => {
    const minimal = `apiVersion: apps.chinalhr.github.io/v1alpha1
kind: SidecarSet
metadata: {name: minimal}
spec:
  selector: {matchLabels: {app: seed}}
  containers:
  - name: agent
    image: busybox:1.36
`;
    expect(await harness.kubectl(['apply', '-f', '-'], minimal)).toBe(
      'sidecarset.apps.chinalhr.github.io/minimal created\n',
    );
    // The Pod cache of the webhook learns of the new SidecarSet from a watch, a moment later.
    const injected = await eventually(async () => {
      const name = `seed-${Date.now()}`;
      const created = (await harness.admin.create(bare(name, { app: 'seed' }))) as Pod;
      if (names(created).includes('agent')) return created;
      await harness.admin.delete(created);
      return false;
    });
    const agent = injected.spec?.containers?.find((container) => container.name === 'agent');
    expect(agent).toMatchObject({
      image: 'busybox:1.36',
      env: [{ name: 'IS_INJECTED', value: 'true' }],
    });
    expect(Object.keys(hashes(injected))).toEqual(['minimal']);
    await eventually(async () => {
      const counts = await status('minimal');
      return counts.matchedPods === 1 && counts.updatedPods === 1;
    });
  });
});
