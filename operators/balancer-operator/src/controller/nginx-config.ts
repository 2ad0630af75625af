import type { Balancer, BalancerPort } from '../api/v1alpha1/balancer.js';
import { resolvedPorts } from '../api/v1alpha1/balancer-defaults.js';
import { backendServiceName } from './balancer-names.js';

/**
 * The nginx upstream of one port, named after its number and protocol (unique in a valid
 * spec, whose ports are keyed by both): `port_80_tcp`.
 */
export const upstreamName = (port: Pick<BalancerPort, 'port' | 'protocol'>): string =>
  `port_${port.port}_${(port.protocol ?? 'TCP').toLowerCase()}`;

/**
 * The nginx.conf of a Balancer's proxy: one `stream` server per port, listening on the port
 * (`udp` for UDP ports; nginx has no `tcp` parameter, TCP is the default), proxying to an
 * upstream that lists every backend as `<balancer>-<backend>-backend:<port> weight=<weight>`,
 * so nginx's weighted round robin splits connections (TCP) or sessions (UDP) by weight. A UDP
 * server ends its session after one response (`proxy_responses 1`), so each request datagram
 * is balanced on its own and sessions do not pile up. Errors go to stderr. The file has no
 * `pid` or `daemon` directive: the proxy Deployment passes them with `-g` (the pid file on a
 * writable emptyDir, since the root filesystem is read-only), and so can a test.
 *
 * Deterministic: the same spec gives the same text, so its hash only changes with the spec.
 * Assumes a spec the CRD schema accepted (at least one port and one backend); ports without a
 * protocol or name get `resolvePort`'s defaults (TCP, `<protocol>-<port>`).
 */
export function nginxConfig(balancer: Balancer): string {
  const name = balancer.metadata.name ?? '';
  const { backends } = balancer.spec;
  const ports = resolvedPorts(balancer);
  const lines = [
    `# nginx.conf of Balancer ${balancer.metadata.namespace ?? ''}/${name}, written by the balancer-operator: edits are overwritten.`,
    'worker_processes auto;',
    'error_log stderr warn;',
    '',
    'events {',
    '    worker_connections 4096;',
    '}',
    '',
    'stream {',
  ];
  for (const port of ports) {
    lines.push(`    upstream ${upstreamName(port)} {`);
    for (const backend of backends) {
      lines.push(
        `        server ${backendServiceName(name, backend.name)}:${port.port} weight=${backend.weight};`,
      );
    }
    lines.push('    }', '');
  }
  for (const port of ports) {
    const udp = port.protocol === 'UDP';
    lines.push(
      `    # port ${port.name} (${port.protocol})`,
      '    server {',
      `        listen ${port.port}${udp ? ' udp' : ''};`,
      `        proxy_pass ${upstreamName(port)};`,
      ...(udp ? ['        proxy_responses 1;'] : []),
      '    }',
      '',
    );
  }
  lines.pop();
  lines.push('}', '');
  return lines.join('\n');
}
