import { createHash, randomUUID } from 'node:crypto';
import type { KubernetesObject } from '@ops/api';
import { formatRfc3339Seconds } from '@ops/api';

/** The address of the simulated node. */
export const nodeAddress = '172.18.0.2';

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/**
 * The Node the simulated kubelet registers: Ready without pressure, with addresses
 * (`nodeAddress`), capacity/allocatable (8 CPUs, 16Gi, 110 Pods) and nodeInfo
 * `kubeletVersion: v1.33.0`; `bootID` names this kubelet's run.
 */
export function simulatedNode(name: string, bootID: string, now: Date): KubernetesObject {
  const at = formatRfc3339Seconds(now);
  const condition = (type: string, status: string, reason: string, message: string) => ({
    type,
    status,
    lastHeartbeatTime: at,
    lastTransitionTime: at,
    reason,
    message,
  });
  const resources = {
    cpu: '8',
    memory: '16384Mi',
    pods: '110',
    'ephemeral-storage': '100Gi',
    'hugepages-2Mi': '0',
  };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: {
        'kubernetes.io/hostname': name,
        'kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        'beta.kubernetes.io/os': 'linux',
        'beta.kubernetes.io/arch': 'amd64',
      },
      annotations: {
        'node.alpha.kubernetes.io/ttl': '0',
        'volumes.kubernetes.io/controller-managed-attach-detach': 'true',
      },
    },
    spec: {
      podCIDR: '10.244.0.0/16',
      podCIDRs: ['10.244.0.0/16'],
      providerID: `local://${name}`,
    },
    status: {
      capacity: resources,
      allocatable: resources,
      conditions: [
        condition(
          'MemoryPressure',
          'False',
          'KubeletHasSufficientMemory',
          'kubelet has sufficient memory available',
        ),
        condition(
          'DiskPressure',
          'False',
          'KubeletHasNoDiskPressure',
          'kubelet has no disk pressure',
        ),
        condition(
          'PIDPressure',
          'False',
          'KubeletHasSufficientPID',
          'kubelet has sufficient PID available',
        ),
        condition('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'),
      ],
      addresses: [
        { type: 'InternalIP', address: nodeAddress },
        { type: 'Hostname', address: name },
      ],
      daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
      nodeInfo: {
        machineID: sha256(`machine/${name}`).slice(0, 32),
        systemUUID: randomUUID(),
        bootID: bootID,
        kernelVersion: '6.8.0',
        osImage: 'Debian GNU/Linux 12 (bookworm)',
        containerRuntimeVersion: 'containerd://2.1.1',
        kubeletVersion: 'v1.33.0',
        kubeProxyVersion: 'v1.33.0',
        operatingSystem: 'linux',
        architecture: 'amd64',
      },
    },
  };
}
