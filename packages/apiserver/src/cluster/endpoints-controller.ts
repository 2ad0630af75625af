import type { KubernetesObject } from '@ops/api';
import { jsonEqual } from '@ops/api';
import { canonicalJson, type Json, objectsOf, stringOr } from '../json/json.js';
import type { StoreEvent } from '../store/object-store.js';
import { isPodReady, isPodTerminal } from './conditions.js';
import type { Controller } from './controller.js';
import type { ControllerClient } from './controller-client.js';
import { controllerReference, namespacedKey, specOf, splitKey, statusOf } from './object-fields.js';
import { mapSelectorOf } from './resource-index.js';

/** Labels of the objects this controller manages. */
export const endpointLabels = {
  /** On Endpoints written by the endpoints controller. */
  endpointsManagedBy: 'endpoints.kubernetes.io/managed-by',
  endpointsManager: 'endpoint-controller',
  /** On EndpointSlices: the Service they belong to. */
  serviceName: 'kubernetes.io/service-name',
  sliceManagedBy: 'endpointslice.kubernetes.io/managed-by',
  sliceManager: 'endpointslice-controller.k8s.io',
  headless: 'service.kubernetes.io/headless',
} as const;

/** One Service port resolved for one Pod. */
interface ResolvedPort {
  name?: string;
  port: number;
  protocol: string;
  appProtocol?: string;
}

/** A Pod as an endpoint of a Service. */
interface Backend {
  pod: KubernetesObject;
  ip: string;
  ports: ResolvedPort[];
  portsKey: string;
  ready: boolean;
  serving: boolean;
  terminating: boolean;
}

/**
 * Resolves a Service port's `targetPort` for a Pod: a number is used as is, a name is
 * looked up among the Pod's container ports; undefined when the name is not found.
 */
export function resolveTargetPort(pod: KubernetesObject, servicePort: Json): number | undefined {
  const target = servicePort.targetPort ?? servicePort.port;
  if (typeof target === 'number') return target;
  if (typeof target === 'string' && /^\d+$/.test(target)) return Number(target);
  for (const container of objectsOf(specOf(pod).containers)) {
    for (const port of objectsOf(container.ports)) {
      if (port.name === target && typeof port.containerPort === 'number') return port.containerPort;
    }
  }
  return undefined;
}

/**
 * The endpoints and EndpointSlice controllers of kube-controller-manager, for Services with
 * a selector (Services without one, and ExternalName ones, are left alone: their Endpoints
 * are the user's to write, e.g. to reach a webhook running on the host).
 *
 * Endpoints (same name as the Service, labelled `endpoints.kubernetes.io/managed-by:
 * endpoint-controller`): subsets of the selected Pods that have an IP, have not ended and
 * are not being deleted, grouped by their resolved ports, ready Pods (or all with
 * `publishNotReadyAddresses`) in `addresses`, others in `notReadyAddresses`, each with ip,
 * nodeName and targetRef.
 *
 * EndpointSlices (`discovery.k8s.io/v1`, generateName `<service>-`, labelled
 * `kubernetes.io/service-name`, controlled by the Service): one slice per set of resolved
 * ports (one empty slice when no Pod is selected), endpoints with conditions ready, serving
 * and terminating (terminating Pods are kept with ready false).
 *
 * Both are written only when they change; when the Service goes, the managed Endpoints and
 * slices are deleted. Not simulated: the 1000/100 endpoint caps, topology hints, hostnames,
 * EndpointSlice mirroring of user-written Endpoints. Keys are `namespace/name` of Services.
 */
export class EndpointsController implements Controller {
  readonly name = 'endpoints';

  constructor(private readonly client: ControllerClient) {}

  initialKeys(): string[] {
    return this.client.list('', 'services').flatMap((svc) => namespacedKey(svc) ?? []);
  }

  keysFor(resource: string, event: StoreEvent): string[] {
    const object = event.current.object;
    switch (resource) {
      case '/services':
      case '/endpoints':
        return [event.current.key];
      case 'discovery.k8s.io/endpointslices': {
        const service = object.metadata?.labels?.[endpointLabels.serviceName];
        return service === undefined ? [] : [`${object.metadata?.namespace ?? ''}/${service}`];
      }
      case '/pods': {
        // The Services selecting the Pod now or before the change (a label change moves it).
        const namespace = object.metadata?.namespace ?? '';
        const keys = new Set<string>();
        for (const labels of [object.metadata?.labels, event.previous?.object.metadata?.labels]) {
          if (labels === undefined) continue;
          for (const service of this.client.listSelecting('', 'services', namespace, labels))
            keys.add(`${namespace}/${service.metadata?.name ?? ''}`);
        }
        return [...keys].sort();
      }
      default:
        return [];
    }
  }

  async reconcile(key: string): Promise<undefined> {
    const { namespace, name } = splitKey(key);
    const service = this.client.get('', 'services', namespace, name);
    if (service === undefined) {
      await this.removeManaged(namespace, name);
      return undefined;
    }
    const selector = mapSelectorOf(service);
    if (selector === undefined || specOf(service).type === 'ExternalName') return undefined;
    const backends = this.backends(service, selector);
    await this.syncEndpoints(
      service,
      backends.filter((b) => !b.terminating),
    );
    await this.syncSlices(service, backends);
    return undefined;
  }

  private backends(service: KubernetesObject, selector: Record<string, string>): Backend[] {
    const spec = specOf(service);
    const servicePorts = objectsOf(spec.ports);
    const publishNotReady = spec.publishNotReadyAddresses === true;
    const result: Backend[] = [];
    const namespace = service.metadata?.namespace ?? '';
    for (const pod of this.client.listSelected('', 'pods', namespace, selector)) {
      if (isPodTerminal(pod)) continue;
      const ip = stringOr(statusOf(pod).podIP);
      if (ip === '') continue;
      const ports: ResolvedPort[] = [];
      for (const servicePort of servicePorts) {
        const port = resolveTargetPort(pod, servicePort);
        if (port === undefined) continue;
        const resolved: ResolvedPort = { port, protocol: stringOr(servicePort.protocol, 'TCP') };
        if (typeof servicePort.name === 'string' && servicePort.name !== '')
          resolved.name = servicePort.name;
        if (typeof servicePort.appProtocol === 'string')
          resolved.appProtocol = servicePort.appProtocol;
        ports.push(resolved);
      }
      if (servicePorts.length > 0 && ports.length === 0) continue;
      const terminating = pod.metadata?.deletionTimestamp !== undefined;
      const podReady = isPodReady(pod);
      result.push({
        pod,
        ip,
        ports,
        portsKey: canonicalJson(ports),
        ready: (podReady || publishNotReady) && !terminating,
        serving: podReady || publishNotReady,
        terminating,
      });
    }
    return result.sort((a, b) => compareIPs(a.ip, b.ip));
  }

  private labelsFor(
    service: KubernetesObject,
    extra: Record<string, string>,
  ): Record<string, string> {
    const labels: Record<string, string> = { ...(service.metadata?.labels ?? {}), ...extra };
    if (specOf(service).clusterIP === 'None') labels[endpointLabels.headless] = '';
    return labels;
  }

  private async syncEndpoints(service: KubernetesObject, backends: Backend[]): Promise<void> {
    const namespace = service.metadata?.namespace ?? '';
    const name = service.metadata?.name ?? '';
    const subsets = new Map<
      string,
      { addresses: Json[]; notReadyAddresses: Json[]; ports: ResolvedPort[] }
    >();
    for (const backend of backends) {
      let subset = subsets.get(backend.portsKey);
      if (subset === undefined) {
        subset = { addresses: [], notReadyAddresses: [], ports: backend.ports };
        subsets.set(backend.portsKey, subset);
      }
      const address: Json = { ip: backend.ip };
      const nodeName = specOf(backend.pod).nodeName;
      if (typeof nodeName === 'string' && nodeName !== '') address.nodeName = nodeName;
      address.targetRef = podReference(backend.pod);
      (backend.ready ? subset.addresses : subset.notReadyAddresses).push(address);
    }
    const desired = [...subsets.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, subset]) => {
        const out: Json = {};
        if (subset.addresses.length > 0) out.addresses = subset.addresses;
        if (subset.notReadyAddresses.length > 0) out.notReadyAddresses = subset.notReadyAddresses;
        if (subset.ports.length > 0) out.ports = subset.ports;
        return out;
      });
    const labels = this.labelsFor(service, {
      [endpointLabels.endpointsManagedBy]: endpointLabels.endpointsManager,
    });
    const existing = this.client.get('', 'endpoints', namespace, name);
    if (existing === undefined) {
      const body: KubernetesObject = {
        apiVersion: 'v1',
        kind: 'Endpoints',
        metadata: { name, namespace, labels },
      };
      if (desired.length > 0) body.subsets = desired;
      await this.client.create('', 'endpoints', namespace, body);
      return;
    }
    const current = Array.isArray(existing.subsets) ? existing.subsets : [];
    if (jsonEqual(current, desired) && jsonEqual(existing.metadata?.labels ?? {}, labels)) return;
    const copy = structuredClone(existing);
    const meta = copy.metadata ?? {};
    meta.labels = labels;
    copy.metadata = meta;
    if (desired.length > 0) copy.subsets = desired;
    else delete copy.subsets;
    await this.client.update('', 'endpoints', copy);
  }

  private async syncSlices(service: KubernetesObject, backends: Backend[]): Promise<void> {
    const namespace = service.metadata?.namespace ?? '';
    const name = service.metadata?.name ?? '';
    const groups = new Map<string, { ports: ResolvedPort[]; endpoints: Json[] }>();
    for (const backend of backends) {
      let group = groups.get(backend.portsKey);
      if (group === undefined) {
        group = { ports: backend.ports, endpoints: [] };
        groups.set(backend.portsKey, group);
      }
      const endpoint: Json = {
        addresses: [backend.ip],
        conditions: {
          ready: backend.ready,
          serving: backend.serving,
          terminating: backend.terminating,
        },
      };
      const nodeName = specOf(backend.pod).nodeName;
      if (typeof nodeName === 'string' && nodeName !== '') endpoint.nodeName = nodeName;
      endpoint.targetRef = podReference(backend.pod);
      group.endpoints.push(endpoint);
    }
    if (groups.size === 0) groups.set('[]', { ports: [], endpoints: [] });
    const labels = this.labelsFor(service, {
      [endpointLabels.serviceName]: name,
      [endpointLabels.sliceManagedBy]: endpointLabels.sliceManager,
    });
    const toPorts = (ports: ResolvedPort[]) =>
      ports.map((p) => ({
        name: p.name ?? '',
        port: p.port,
        protocol: p.protocol,
        ...(p.appProtocol ? { appProtocol: p.appProtocol } : {}),
      }));
    const owned = this.managedSlices(namespace, name).filter(
      (slice) => slice.metadata?.deletionTimestamp === undefined,
    );
    const unmatched = new Map(owned.map((slice) => [slice.metadata?.name ?? '', slice]));
    const pending: Array<{ ports: Json[]; endpoints: Json[] }> = [];
    for (const group of groups.values()) {
      const ports = toPorts(group.ports);
      const match = [...unmatched.values()].find((slice) => jsonEqual(slice.ports ?? [], ports));
      if (match === undefined) {
        pending.push({ ports, endpoints: group.endpoints });
        continue;
      }
      unmatched.delete(match.metadata?.name ?? '');
      await this.writeSlice(service, match, labels, ports, group.endpoints);
    }
    for (const group of pending) {
      const reuse = unmatched.values().next().value;
      if (reuse !== undefined) {
        unmatched.delete(reuse.metadata?.name ?? '');
        await this.writeSlice(service, reuse, labels, group.ports, group.endpoints);
      } else {
        await this.writeSlice(service, undefined, labels, group.ports, group.endpoints);
      }
    }
    for (const slice of unmatched.values()) {
      await this.client.delete(
        'discovery.k8s.io',
        'endpointslices',
        namespace,
        slice.metadata?.name ?? '',
        { preconditions: { uid: slice.metadata?.uid ?? '' } },
      );
    }
  }

  private async writeSlice(
    service: KubernetesObject,
    existing: KubernetesObject | undefined,
    labels: Record<string, string>,
    ports: Json[],
    endpoints: Json[],
  ): Promise<void> {
    const namespace = service.metadata?.namespace ?? '';
    const owner = controllerReference(service);
    if (existing === undefined) {
      await this.client.create('discovery.k8s.io', 'endpointslices', namespace, {
        apiVersion: 'discovery.k8s.io/v1',
        kind: 'EndpointSlice',
        metadata: {
          generateName: `${service.metadata?.name ?? ''}-`,
          namespace,
          labels,
          ownerReferences: [owner],
        },
        addressType: 'IPv4',
        endpoints,
        ports,
      });
      return;
    }
    const same =
      jsonEqual(existing.endpoints ?? [], endpoints) &&
      jsonEqual(existing.ports ?? [], ports) &&
      jsonEqual(existing.metadata?.labels ?? {}, labels) &&
      jsonEqual(existing.metadata?.ownerReferences ?? [], [owner]) &&
      existing.addressType === 'IPv4';
    if (same) return;
    const copy = structuredClone(existing);
    const meta = copy.metadata ?? {};
    meta.labels = labels;
    meta.ownerReferences = [owner];
    copy.metadata = meta;
    copy.addressType = 'IPv4';
    copy.endpoints = endpoints;
    copy.ports = ports;
    await this.client.update('discovery.k8s.io', 'endpointslices', copy);
  }

  private managedSlices(namespace: string, service: string): KubernetesObject[] {
    return this.client.listSelected('discovery.k8s.io', 'endpointslices', namespace, {
      [endpointLabels.serviceName]: service,
      [endpointLabels.sliceManagedBy]: endpointLabels.sliceManager,
    });
  }

  private async removeManaged(namespace: string, name: string): Promise<void> {
    const endpoints = this.client.get('', 'endpoints', namespace, name);
    if (
      endpoints?.metadata?.labels?.[endpointLabels.endpointsManagedBy] ===
      endpointLabels.endpointsManager
    ) {
      await this.client.delete('', 'endpoints', namespace, name, {
        preconditions: { uid: endpoints.metadata?.uid ?? '' },
      });
    }
    for (const slice of this.managedSlices(namespace, name)) {
      if (slice.metadata?.deletionTimestamp !== undefined) continue;
      await this.client.delete(
        'discovery.k8s.io',
        'endpointslices',
        namespace,
        slice.metadata?.name ?? '',
        { preconditions: { uid: slice.metadata?.uid ?? '' } },
      );
    }
  }
}

function podReference(pod: KubernetesObject): Json {
  return {
    kind: 'Pod',
    namespace: pod.metadata?.namespace ?? '',
    name: pod.metadata?.name ?? '',
    uid: pod.metadata?.uid ?? '',
  };
}

/** Orders dotted IPv4 addresses numerically (others as strings). */
function compareIPs(a: string, b: string): number {
  const parse = (ip: string) => ip.split('.').map(Number);
  const x = parse(a);
  const y = parse(b);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0 && !Number.isNaN(d)) return d;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}
