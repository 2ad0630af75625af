import { type KubernetesObject, objectKind } from '@ops/core';

/** The fields of a core/v1 Pod the myjob-operator reads and writes. */
export type Pod = KubernetesObject & {
  spec?: Record<string, unknown>;
  status?: {
    phase?: 'Pending' | 'Running' | 'Succeeded' | 'Failed' | 'Unknown';
    startTime?: string;
    containerStatuses?: Array<{
      name: string;
      state?: { terminated?: { exitCode: number; finishedAt?: string; reason?: string } };
    }>;
  };
};

/** The typed client's kind for core/v1 Pods. */
export const pods = objectKind<Pod>('v1', 'Pod');
