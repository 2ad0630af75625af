import type { Balancer, BalancerBackend, BalancerPort } from './balancer.js';

/** A Balancer port with every optional field filled in: what the children are built from. */
export interface ResolvedBalancerPort {
  name: string;
  protocol: 'TCP' | 'UDP';
  port: number;
  targetPort: number | string;
}

/**
 * The name a port without one gets: `<protocol>-<port>` in lower case (`tcp-80`, `udp-53`).
 * It is a valid IANA service name (at most 9 characters), unique among the ports (which are
 * keyed by port and protocol); the CRD's CEL rule reserves names of this form for the port
 * they name, so no given name can take it. Every port of the front and backend Services is named, as Kubernetes
 * requires of a Service with more than one port, and a port keeps its name when ports are added.
 */
export function defaultPortName(port: Pick<BalancerPort, 'port' | 'protocol'>): string {
  return `${(port.protocol ?? 'TCP').toLowerCase()}-${port.port}`;
}

/**
 * A port with the tutorial's defaults applied where it leaves fields out: protocol `TCP`,
 * targetPort the same number as `port`, name {@link defaultPortName}. Fields that are set are
 * kept as they are.
 */
export function resolvePort(port: BalancerPort): ResolvedBalancerPort {
  const protocol = port.protocol ?? 'TCP';
  return {
    name: port.name ?? defaultPortName({ port: port.port, protocol }),
    protocol,
    port: port.port,
    targetPort: port.targetPort ?? port.port,
  };
}

/** Every port of the Balancer, in spec order, with {@link resolvePort}'s defaults. */
export function resolvedPorts(balancer: Balancer): ResolvedBalancerPort[] {
  return balancer.spec.ports.map(resolvePort);
}

/**
 * The labels a backend's Service selects: `spec.selector` plus the backend's own selector (the
 * backend's wins on a shared key). A backend without a selector selects by `spec.selector`
 * alone; with neither, the map is empty and the Service selects no Pods (Kubernetes treats a
 * Service without a selector as one whose endpoints are managed by hand).
 */
export function backendSelector(
  balancer: Balancer,
  backend: BalancerBackend,
): Record<string, string> {
  return { ...balancer.spec.selector, ...backend.selector };
}
