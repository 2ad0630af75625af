import { describe, expect, it } from 'vitest';
import { backendService } from '../../controller/backend-service.js';
import { frontService } from '../../controller/front-service.js';
import { nginxConfig } from '../../controller/nginx-config.js';
import { proxyDeployment } from '../../controller/proxy-deployment.js';
import { testBalancer } from '../../controller/test-balancer.js';
import {
  backendSelector,
  defaultPortName,
  resolvedPorts,
  resolvePort,
} from './balancer-defaults.js';

/** The tutorial's minimal Balancer: only the required fields (port numbers, backend names and weights). */
const minimal = testBalancer({
  ports: [{ port: 80 }, { port: 53, protocol: 'UDP' }],
  selector: undefined,
  backends: [
    { name: 'v1', weight: 40 },
    { name: 'v2', weight: 60, selector: { version: 'v2' } },
  ],
});

describe('Balancer defaults', () => {
  it('names a port without a name <protocol>-<port> in lower case, TCP when the protocol is missing', () => {
    expect(defaultPortName({ port: 80 })).toBe('tcp-80');
    expect(defaultPortName({ port: 53, protocol: 'UDP' })).toBe('udp-53');
    expect(defaultPortName({ port: 65535, protocol: 'TCP' })).toBe('tcp-65535');
  });

  it('fills protocol TCP, targetPort = port and the name, and keeps what is set', () => {
    expect(resolvePort({ port: 80 })).toEqual({
      name: 'tcp-80',
      protocol: 'TCP',
      port: 80,
      targetPort: 80,
    });
    const full = { name: 'dns', protocol: 'UDP' as const, port: 53, targetPort: 'dns' };
    expect(resolvePort(full)).toEqual(full);
    expect(resolvedPorts(minimal).map((port) => port.name)).toEqual(['tcp-80', 'udp-53']);
  });

  it('selects by spec.selector alone for a backend without a selector, and by both otherwise', () => {
    const sample = testBalancer();
    expect(backendSelector(sample, { name: 'v0', weight: 1 })).toEqual({ app: 'test' });
    expect(backendSelector(sample, { name: 'v1', weight: 1, selector: { version: 'v1' } })).toEqual(
      { app: 'test', version: 'v1' },
    );
    expect(backendSelector(minimal, { name: 'v1', weight: 1 })).toEqual({});
  });

  it('builds every child of a Balancer that leaves out every optional field', () => {
    const [first, second] = minimal.spec.backends;
    if (!first || !second) throw new Error('the minimal Balancer has two backends');
    expect(backendService(minimal, first).spec).toEqual({
      ports: [
        { name: 'tcp-80', protocol: 'TCP', port: 80, targetPort: 80 },
        { name: 'udp-53', protocol: 'UDP', port: 53, targetPort: 53 },
      ],
    });
    expect(backendService(minimal, second).spec?.selector).toEqual({ version: 'v2' });
    expect(frontService(minimal).spec?.ports).toEqual([
      { name: 'tcp-80', protocol: 'TCP', port: 80, targetPort: 80 },
      { name: 'udp-53', protocol: 'UDP', port: 53, targetPort: 53 },
    ]);
    const conf = nginxConfig(minimal);
    expect(conf).toContain('    upstream port_80_tcp {');
    expect(conf).toContain('        listen 53 udp;');
    expect(conf).toContain('    # port tcp-80 (TCP)');
    const podSpec = proxyDeployment(minimal, conf).spec?.template?.spec as {
      containers: Array<{ ports?: unknown }>;
    };
    expect(podSpec.containers[0]?.ports).toEqual([
      { name: 'tcp-80', containerPort: 80, protocol: 'TCP' },
      { name: 'udp-53', containerPort: 53, protocol: 'UDP' },
    ]);
  });
});
