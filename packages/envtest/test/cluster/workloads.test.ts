import { KubeConfig } from '@kubernetes/client-node';
import { podExitCodeAnnotation, podRunDurationAnnotation } from '@ops/apiserver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  consistently,
  deployment,
  eventually,
  kubeRequest,
  namespace,
  pinnedControlPlane,
} from '../../src/index.js';
import { startCluster, type TestCluster } from '../cluster.js';

// The cluster plane: kube-controller-manager, kube-scheduler and a kwok node run the
// workloads, so these are what a real cluster does, proven through the API.
let cluster: TestCluster;
beforeAll(async () => {
  cluster = await startCluster({ controlPlane: 'cluster', requires: 'pods' });
});
afterAll(async () => {
  await cluster?.stop();
});

interface PodLike {
  metadata: { name: string; ownerReferences?: Array<{ kind: string }> };
  spec: { nodeName?: string };
  status: {
    phase?: string;
    podIP?: string;
    conditions?: Array<{ type: string; status: string }>;
    containerStatuses?: Array<{
      ready: boolean;
      state: {
        running?: { startedAt: string };
        terminated?: { exitCode: number; reason: string; startedAt: string; finishedAt: string };
      };
    }>;
  };
}

const condition = (pod: PodLike, type: string) =>
  pod.status.conditions?.find((c) => c.type === type)?.status;

async function pods(ns: string, selector: string): Promise<PodLike[]> {
  const response = await cluster.request(
    'GET',
    `/api/v1/namespaces/${ns}/pods?labelSelector=${encodeURIComponent(selector)}`,
  );
  expect(response.status).toBe(200);
  return response.body.items;
}

async function getPod(ns: string, name: string): Promise<PodLike> {
  const response = await cluster.request('GET', `/api/v1/namespaces/${ns}/pods/${name}`);
  expect(response.status).toBe(200);
  return response.body;
}

/** Creates a Deployment and waits until all its replicas are available; its Pods. */
async function availableDeployment(ns: string, name: string, replicas: number): Promise<PodLike[]> {
  const created = await cluster.request(
    'POST',
    `/apis/apps/v1/namespaces/${ns}/deployments`,
    deployment(ns, name, 'nginx:1.22', replicas),
  );
  expect(created.status).toBe(201);
  await eventually(
    async () => {
      const got = await cluster.request(
        'GET',
        `/apis/apps/v1/namespaces/${ns}/deployments/${name}`,
      );
      expect(got.body.status?.availableReplicas).toBe(replicas);
    },
    { timeoutMs: 60_000, description: `Deployment ${ns}/${name} available` },
  );
  return pods(ns, `app=${name}`);
}

function finishingPod(name: string, annotations: Record<string, string>, restartPolicy: string) {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, annotations },
    spec: { restartPolicy, containers: [{ name: 'main', image: 'busybox' }] },
  };
}

describe('the cluster plane', () => {
  it('runs a kwok node that kubectl lists Ready', async () => {
    expect(cluster.env.kind).toBe('cluster');
    const table = await cluster.kubectl(['get', 'nodes']);
    expect(table).toMatch(/^NAME\s+STATUS\s+ROLES\s+AGE\s+VERSION\n/);
    expect(table).toMatch(/^kwok-node-0\s+Ready\s+<none>\s+\S+\s+kwok-0\.8\.0$/m);
    const version = await cluster.kubectl(['version', '-o', 'json']);
    // The release this run picked (OPS_ENVTEST_KUBERNETES_VERSION, else the newest).
    const { versions } = await pinnedControlPlane();
    expect(JSON.parse(version).serverVersion.gitVersion).toBe(`v${versions.kubernetes}`);
  });

  it('gives a service-account kubeconfig that RBAC applies to, as on the other planes', async () => {
    const config = new KubeConfig();
    config.loadFromString(await cluster.env.serviceAccountKubeconfig('default', 'operator'));
    const denied = await kubeRequest(config, 'GET', '/api/v1/namespaces/default/pods');
    expect(denied.status).toBe(403);
    expect((denied.body as { message: string }).message).toContain(
      'User "system:serviceaccount:default:operator" cannot list resource "pods"',
    );
  });

  it('rolls a Deployment out: its Pods are scheduled, Running and Ready', async () => {
    const running = await availableDeployment('default', 'web', 2);
    expect(running).toHaveLength(2);
    for (const pod of running) {
      expect(pod.spec.nodeName).toBe('kwok-node-0');
      expect(pod.status.phase).toBe('Running');
      expect(pod.status.podIP).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
      expect(condition(pod, 'Ready')).toBe('True');
      expect(pod.status.containerStatuses?.[0]?.state.running?.startedAt).toBeDefined();
    }
    expect(await cluster.kubectl(['get', 'pods', '-l', 'app=web'])).toMatch(
      /^web-\S+\s+1\/1\s+Running\s+0\s+/m,
    );
  });

  it('completes a Job after the run duration its Pods are annotated with', async () => {
    const created = await cluster.request('POST', '/apis/batch/v1/namespaces/default/jobs', {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'pi' },
      spec: {
        backoffLimit: 0,
        template: {
          metadata: { annotations: { [podRunDurationAnnotation]: '2s' } },
          spec: { restartPolicy: 'Never', containers: [{ name: 'pi', image: 'perl' }] },
        },
      },
    });
    expect(created.status).toBe(201);
    await eventually(
      async () => {
        const job = await cluster.request('GET', '/apis/batch/v1/namespaces/default/jobs/pi');
        const complete = job.body.status?.conditions?.find(
          (c: { type: string }) => c.type === 'Complete',
        );
        expect(complete?.status).toBe('True');
        expect(job.body.status.succeeded).toBe(1);
      },
      { timeoutMs: 60_000, description: 'Job pi Complete' },
    );
    const [pod] = await pods('default', 'job-name=pi');
    expect(pod?.status.phase).toBe('Succeeded');
    expect(pod && condition(pod, 'Ready')).toBe('False');
    const terminated = pod?.status.containerStatuses?.[0]?.state.terminated;
    expect(terminated).toMatchObject({ exitCode: 0, reason: 'Completed' });
    // It ran for the annotated 2 s (kwok's clock: whole seconds in the API).
    const ran = Date.parse(terminated?.finishedAt ?? '') - Date.parse(terminated?.startedAt ?? '');
    expect(ran).toBeGreaterThanOrEqual(1000);
    expect(await cluster.kubectl(['get', 'pods', '-l', 'job-name=pi'])).toMatch(
      /^pi-\S+\s+0\/1\s+Completed\s+0\s+/m,
    );
  });

  it('fails a Pod with the exit code it is annotated with, and keeps restartPolicy Always Pods running', async () => {
    const failing = await cluster.request(
      'POST',
      '/api/v1/namespaces/default/pods',
      finishingPod(
        'fails',
        { [podExitCodeAnnotation]: '3', [podRunDurationAnnotation]: '0s' },
        'Never',
      ),
    );
    expect(failing.status).toBe(201);
    const always = await cluster.request(
      'POST',
      '/api/v1/namespaces/default/pods',
      finishingPod('serves', { [podRunDurationAnnotation]: '0s' }, 'Always'),
    );
    expect(always.status).toBe(201);
    await eventually(
      async () => expect((await getPod('default', 'fails')).status.phase).toBe('Failed'),
      { timeoutMs: 30_000, description: 'Pod fails Failed' },
    );
    const failed = await getPod('default', 'fails');
    expect(condition(failed, 'Ready')).toBe('False');
    expect(failed.status.containerStatuses?.[0]).toMatchObject({
      ready: false,
      state: { terminated: { exitCode: 3, reason: 'Error' } },
    });
    expect(await cluster.kubectl(['get', 'pod', 'fails'])).toMatch(/^fails\s+0\/1\s+Error\s+0\s+/m);
    await eventually(
      async () => expect(condition(await getPod('default', 'serves'), 'Ready')).toBe('True'),
      { timeoutMs: 30_000, description: 'Pod serves Ready' },
    );
    await consistently(
      async () => expect((await getPod('default', 'serves')).status.phase).toBe('Running'),
      { timeoutMs: 3000, description: 'Pod serves still Running' },
    );
  });

  it("garbage-collects a Deployment's ReplicaSets and Pods when it is deleted", async () => {
    expect(await availableDeployment('default', 'gone', 1)).toHaveLength(1);
    const deleted = await cluster.request(
      'DELETE',
      '/apis/apps/v1/namespaces/default/deployments/gone',
    );
    expect(deleted.status).toBe(200);
    await eventually(
      async () => {
        const replicaSets = await cluster.request(
          'GET',
          '/apis/apps/v1/namespaces/default/replicasets?labelSelector=app%3Dgone',
        );
        expect(replicaSets.body.items).toEqual([]);
        expect(await pods('default', 'app=gone')).toEqual([]);
      },
      { timeoutMs: 60_000, description: "Deployment gone's ReplicaSets and Pods collected" },
    );
  });

  it('finishes deleting a namespace with running Pods in it', async () => {
    expect((await cluster.request('POST', '/api/v1/namespaces', namespace('doomed'))).status).toBe(
      201,
    );
    expect(await availableDeployment('doomed', 'web', 1)).toHaveLength(1);
    const watch = await cluster.watch(
      '/api/v1/namespaces?watch=true&fieldSelector=metadata.name%3Ddoomed',
    );
    try {
      expect((await cluster.request('DELETE', '/api/v1/namespaces/doomed')).status).toBe(200);
      await eventually(() => watch.events.some((event) => event.type === 'DELETED'), {
        timeoutMs: 90_000,
        description: 'namespace doomed deleted',
      });
    } finally {
      watch.close();
    }
    expect((await cluster.request('GET', '/api/v1/namespaces/doomed')).status).toBe(404);
  });
});
