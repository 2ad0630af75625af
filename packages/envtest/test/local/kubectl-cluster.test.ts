import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type TestCluster } from '../cluster.js';

// The simulated cluster (Deployments -> ReplicaSets -> Pods on a Node, Service endpoints) is
// the local server's: envtest's real binaries run no controllers, as in controller-runtime.
let cluster: TestCluster;
beforeAll(async () => {
  cluster = await startCluster({ controlPlane: 'local' });
});
afterAll(async () => {
  await cluster.stop();
});

describe('the simulated cluster, through the real kubectl', () => {
  it('runs a Deployment to Available with Running Pods and Service endpoints', async () => {
    await cluster.kubectl([
      'create',
      'deployment',
      'web',
      '--image=nginx:1.25',
      '--replicas=2',
      '--port=80',
    ]);
    await cluster.kubectl(['expose', 'deployment', 'web', '--port=8080', '--target-port=80']);
    expect(
      await cluster.kubectl([
        'wait',
        '--for=condition=Available',
        'deployment/web',
        '--timeout=20s',
      ]),
    ).toContain('condition met');
    const pods = await cluster.kubectl(['get', 'pods', '-l', 'app=web']);
    expect(pods.match(/Running/g)).toHaveLength(2);
    expect(await cluster.kubectl(['get', 'deployment', 'web'])).toMatch(/web\s+2\/2\s+2\s+2/);
    const endpoints = await cluster.kubectl([
      'get',
      'endpoints',
      'web',
      '-o',
      'jsonpath={.subsets[0].addresses[*].ip}',
    ]);
    expect(endpoints.split(' ')).toHaveLength(2);
  });

  it('rolls out an image change and scales', async () => {
    await cluster.kubectl(['set', 'image', 'deployment/web', 'nginx=nginx:1.26']);
    expect(
      await cluster.kubectl(['rollout', 'status', 'deployment/web', '--timeout=20s']),
    ).toContain('successfully rolled out');
    await cluster.kubectl(['scale', 'deployment/web', '--replicas=0']);
    await cluster.kubectl(['wait', '--for=delete', 'pod', '-l', 'app=web', '--timeout=20s']);
    expect(await cluster.kubectl(['get', 'pods', '-l', 'app=web', '-o', 'name'])).toBe('');
    expect(await cluster.kubectl(['get', 'deployment', 'web'])).toMatch(/web\s+0\/0\s+0\s+0/);
  });

  it('edits an object with KUBE_EDITOR', async () => {
    await cluster.kubectl(['create', 'configmap', 'colors', '--from-literal=color=blue']);
    await cluster.kubectl(['edit', 'configmap', 'colors'], {
      env: { KUBE_EDITOR: 'sed -i s/blue/green/' },
    });
    expect(
      await cluster.kubectl(['get', 'configmap', 'colors', '-o', 'jsonpath={.data.color}']),
    ).toBe('green');
  });

  it('streams changes with get -w', async () => {
    const child = spawn(
      process.env.KUBECTL ?? 'kubectl',
      [
        '--kubeconfig',
        cluster.env.kubeconfigPath,
        'get',
        'configmaps',
        '-w',
        '--output-watch-events',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const until = async (text: string) => {
      const deadline = Date.now() + 10_000;
      while (!output.includes(text)) {
        if (Date.now() > deadline)
          throw new Error(`kubectl get -w never printed ${text}: ${output}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    try {
      await until('colors');
      await cluster.kubectl(['create', 'configmap', 'watched', '--from-literal=a=b']);
      await until('watched');
      await cluster.kubectl(['delete', 'configmap', 'watched']);
      await until('DELETED');
      expect(output).toMatch(/ADDED\s+watched/);
    } finally {
      child.kill();
    }
  });
});
