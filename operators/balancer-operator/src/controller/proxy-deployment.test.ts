import type { Deployment } from '@ops/core';
import { describe, expect, it } from 'vitest';
import { configHashAnnotation, proxyConfigMapName } from './balancer-names.js';
import { configHash, nginxUser, proxyDeployment } from './proxy-deployment.js';
import { testBalancer } from './test-balancer.js';

/** The Pod template's spec, which proxyDeployment always sets. */
const podSpec = (deployment: Deployment) => {
  const spec = deployment.spec?.template.spec;
  if (spec === undefined) throw new Error('proxyDeployment gave no Pod spec');
  return spec;
};

describe('proxyDeployment', () => {
  it('runs nginx:1.15.9 on the ConfigMap at /etc/nginx, its template carrying the config hash', () => {
    const deployment = proxyDeployment(testBalancer(), 'conf-a');
    expect(deployment.metadata?.name).toBe('balancer-sampleproxy');
    expect(deployment.spec?.template?.metadata?.annotations?.[configHashAnnotation]).toBe(
      configHash('conf-a'),
    );
    const [nginx] = podSpec(deployment).containers;
    expect(nginx).toMatchObject({
      image: 'nginx:1.15.9',
      command: ['nginx', '-g', 'daemon off; pid /tmp/nginx.pid;'],
      ports: [{ name: 'http', containerPort: 80, protocol: 'TCP' }],
      readinessProbe: { tcpSocket: { port: 80 } },
    });
    expect(podSpec(deployment).volumes).toContainEqual({
      name: 'nginx-config',
      configMap: { name: proxyConfigMapName('balancer-sample') },
    });
    expect(configHash('conf-b')).not.toBe(configHash('conf-a'));
  });

  it('takes spec.proxyImage', () => {
    const deployment = proxyDeployment(testBalancer({ proxyImage: 'nginx:1.27' }), 'conf');
    expect(podSpec(deployment).containers[0]).toMatchObject({ image: 'nginx:1.27' });
  });

  it('is hardened: non-root, no escalation, no capabilities, read-only root, RuntimeDefault seccomp', () => {
    const spec = podSpec(proxyDeployment(testBalancer(), 'conf'));
    expect(spec.securityContext).toMatchObject({
      runAsNonRoot: true,
      runAsUser: nginxUser,
      runAsGroup: nginxUser,
      seccompProfile: { type: 'RuntimeDefault' },
    });
    expect(spec.containers[0]?.securityContext).toEqual({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ['ALL'] },
    });
  });

  it('lets the non-root nginx bind ports below 1024 by a safe sysctl, and only then', () => {
    expect(podSpec(proxyDeployment(testBalancer(), 'conf')).securityContext?.sysctls).toEqual([
      { name: 'net.ipv4.ip_unprivileged_port_start', value: '0' },
    ]);
    const high = testBalancer({
      ports: [{ name: 'dns', protocol: 'UDP', port: 5353, targetPort: 53 }],
    });
    const spec = podSpec(proxyDeployment(high, 'conf'));
    expect(spec.securityContext?.sysctls).toBeUndefined();
    // No TCP port: no TCP readiness check.
    expect(spec.containers[0]?.readinessProbe).toBeUndefined();
  });
});
