import { createHash } from 'node:crypto';
import type { Deployment } from '@ops/core';
import { type Balancer, defaultProxyImage } from '../api/v1alpha1/balancer.js';
import { resolvedPorts } from '../api/v1alpha1/balancer-defaults.js';
import {
  balancerNameLabel,
  configHashAnnotation,
  proxyConfigMapName,
  proxyDeploymentName,
} from './balancer-names.js';

/** The uid and gid of the `nginx` user in the official nginx images. */
export const nginxUser = 101;

/** The SHA-256 of an nginx.conf, in hex: the proxy Pod template carries it. */
export const configHash = (conf: string): string => createHash('sha256').update(conf).digest('hex');

/**
 * The proxy Deployment `<balancer>proxy`, as the operator wants it: one nginx container running
 * `image` (default nginx:1.15.9) on the ConfigMap mounted at /etc/nginx, as
 * `nginx -g 'daemon off; pid /tmp/nginx.pid;'`, exposing every Balancer port; the Pod template
 * is labelled with the Balancer (the front Service selects it) and annotated with the config's
 * hash, so a new config rolls the Pods.
 *
 * Hardened as far as nginx allows: it runs as the image's `nginx` user (101, non-root), without
 * privilege escalation, with every capability dropped, a read-only root filesystem (the pid
 * file goes to an emptyDir at /tmp; a stream-only config needs no other writable path) and the
 * runtime's default seccomp profile. A non-root process may not bind ports below 1024 and a
 * non-root container gets no effective capabilities, so for such ports the Pod sets the
 * namespaced, Kubernetes-"safe" sysctl `net.ipv4.ip_unprivileged_port_start=0` instead of
 * running as root. Readiness is a TCP check of the first TCP port (none when all are UDP).
 *
 * `spec.replicas` and `spec.selector` are set on creation only (the reconciler keeps them out of
 * updates): the selector is immutable and the replica count is the user's to scale.
 */
export function proxyDeployment(balancer: Balancer, conf: string): Deployment {
  const name = balancer.metadata.name ?? '';
  const labels = { [balancerNameLabel]: name };
  const ports = resolvedPorts(balancer);
  const firstTcp = ports.find((port) => port.protocol === 'TCP');
  const privileged = ports.some((port) => port.port < 1024);
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: proxyDeploymentName(name),
      namespace: balancer.metadata.namespace ?? '',
      labels,
    },
    spec: {
      replicas: 1,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels, annotations: { [configHashAnnotation]: configHash(conf) } },
        spec: {
          securityContext: {
            runAsNonRoot: true,
            runAsUser: nginxUser,
            runAsGroup: nginxUser,
            seccompProfile: { type: 'RuntimeDefault' },
            sysctls: privileged
              ? [{ name: 'net.ipv4.ip_unprivileged_port_start', value: '0' }]
              : undefined,
          },
          containers: [
            {
              name: 'nginx',
              image: balancer.spec.proxyImage ?? defaultProxyImage,
              command: ['nginx', '-g', 'daemon off; pid /tmp/nginx.pid;'],
              ports: ports.map((port) => ({
                name: port.name,
                containerPort: port.port,
                protocol: port.protocol,
              })),
              readinessProbe: firstTcp ? { tcpSocket: { port: firstTcp.port } } : undefined,
              securityContext: {
                allowPrivilegeEscalation: false,
                readOnlyRootFilesystem: true,
                capabilities: { drop: ['ALL'] },
              },
              volumeMounts: [
                { name: 'nginx-config', mountPath: '/etc/nginx', readOnly: true },
                { name: 'tmp', mountPath: '/tmp' },
              ],
            },
          ],
          volumes: [
            { name: 'nginx-config', configMap: { name: proxyConfigMapName(name) } },
            { name: 'tmp', emptyDir: {} },
          ],
        },
      },
    },
  };
}
