import type { KubernetesObject } from '@ops/api';
import { isJsonObject } from '@ops/api';
import type { PrinterColumn, ResourceType } from '../../registry/resource-type.js';
import { customColumnCell } from './custom-column-cell.js';
import { humanDuration } from './human-duration.js';
import { type PrinterColumnPath, printerColumnPath } from './printer-column-path.js';
import type { TableRequest } from './table-request.js';

type Json = Record<string, unknown>;

/**
 * Reads a printer column's JSONPath (`.status.ready`, `.spec.ports[0].port`,
 * `.status.conditions[?(@.type=="Ready")].status`) from an object: the first value it selects,
 * as kube-apiserver's table convertor takes it, or undefined.
 */
export function readJsonPath(object: unknown, path: string): unknown {
  return compiledPath(path).find(object)[0];
}

const compiledPaths = new Map<string, PrinterColumnPath | undefined>();
/** Each distinct path is compiled once; a path that does not compile selects nothing. */
function compiledPath(path: string): PrinterColumnPath {
  if (!compiledPaths.has(path)) {
    if (compiledPaths.size >= 1024) compiledPaths.clear();
    let compiled: PrinterColumnPath | undefined;
    try {
      compiled = printerColumnPath(path);
    } catch {
      compiled = undefined;
    }
    compiledPaths.set(path, compiled);
  }
  return compiledPaths.get(path) ?? { source: path, find: () => [] };
}

const computed: Record<string, (object: Json) => unknown> = {
  '@podReady': (o) => {
    const statuses = arr(get(o, 'status', 'containerStatuses'));
    const containers = arr(get(o, 'spec', 'containers'));
    return `${statuses.filter((s) => isJsonObject(s) && s.ready === true).length}/${containers.length}`;
  },
  '@podStatus': podStatus,
  '@podRestarts': (o) =>
    String(
      arr(get(o, 'status', 'containerStatuses')).reduce<number>(
        (n, s) => n + (Number(get(s, 'restartCount')) || 0),
        0,
      ),
    ),
  '@serviceExternalIP': (o) => {
    const ips = arr(get(o, 'spec', 'externalIPs'));
    return ips.length > 0
      ? ips.join(',')
      : get(o, 'spec', 'type') === 'LoadBalancer'
        ? '<pending>'
        : '<none>';
  },
  '@servicePorts': (o) => {
    const ports = arr(get(o, 'spec', 'ports')).map(
      (p) =>
        `${String(get(p, 'port'))}${get(p, 'nodePort') ? `:${String(get(p, 'nodePort'))}` : ''}/${String(get(p, 'protocol') ?? 'TCP')}`,
    );
    return ports.length > 0 ? ports.join(',') : '<none>';
  },
  '@endpoints': (o) => {
    const list: string[] = [];
    for (const subset of arr(get(o, 'subsets'))) {
      for (const address of arr(get(subset, 'addresses'))) {
        for (const port of arr(get(subset, 'ports')))
          list.push(`${String(get(address, 'ip'))}:${String(get(port, 'port'))}`);
      }
    }
    return list.length > 0
      ? list.slice(0, 3).join(',') + (list.length > 3 ? ` + ${list.length - 3} more...` : '')
      : '<none>';
  },
  '@dataCount': (o) =>
    Object.keys(isJsonObject(o.data) ? o.data : {}).length +
    Object.keys(isJsonObject(o.binaryData) ? o.binaryData : {}).length,
  '@secretsCount': (o) => arr(o.secrets).length,
  '@webhooksCount': (o) => arr(o.webhooks).length,
  '@roleRef': (o) => `${String(get(o, 'roleRef', 'kind'))}/${String(get(o, 'roleRef', 'name'))}`,
  '@deploymentReady': (o) =>
    `${Number(get(o, 'status', 'readyReplicas') ?? 0)}/${Number(get(o, 'spec', 'replicas') ?? 0)}`,
  '@nodeStatus': (o) => {
    const ready = arr(get(o, 'status', 'conditions')).find((c) => get(c, 'type') === 'Ready');
    const base = get(ready, 'status') === 'True' ? 'Ready' : 'NotReady';
    return get(o, 'spec', 'unschedulable') ? `${base},SchedulingDisabled` : base;
  },
  '@nodeRoles': (o) => {
    const labels = get(o, 'metadata', 'labels');
    const roles = Object.keys(isJsonObject(labels) ? labels : {})
      .filter((l) => l.startsWith('node-role.kubernetes.io/'))
      .map((l) => l.slice(24));
    return roles.length > 0 ? roles.join(',') : '<none>';
  },
  '@jobStatus': (o) => {
    const is = (type: string) =>
      arr(get(o, 'status', 'conditions')).some(
        (c) => get(c, 'type') === type && get(c, 'status') === 'True',
      );
    if (is('Complete')) return 'Complete';
    if (is('Failed')) return 'Failed';
    if (get(o, 'metadata', 'deletionTimestamp')) return 'Terminating';
    for (const type of ['Suspended', 'FailureTarget', 'SuccessCriteriaMet'])
      if (is(type)) return type;
    return 'Running';
  },
  '@jobCompletions': (o) => {
    const succeeded = Number(get(o, 'status', 'succeeded') ?? 0);
    const completions = get(o, 'spec', 'completions');
    if (typeof completions === 'number') return `${succeeded}/${completions}`;
    const parallelism = Number(get(o, 'spec', 'parallelism') ?? 0);
    return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
  },
  '@jobDuration': (o) => {
    const start = Date.parse(String(get(o, 'status', 'startTime') ?? ''));
    if (Number.isNaN(start)) return '';
    const end = Date.parse(String(get(o, 'status', 'completionTime') ?? ''));
    return humanDuration(((Number.isNaN(end) ? Date.now() : end) - start) / 1000);
  },
  '@templateContainers': (o) =>
    arr(get(o, 'spec', 'template', 'spec', 'containers'))
      .map((c) => String(get(c, 'name') ?? ''))
      .join(','),
  '@templateImages': (o) =>
    arr(get(o, 'spec', 'template', 'spec', 'containers'))
      .map((c) => String(get(c, 'image') ?? ''))
      .join(','),
  '@selector': (o) => {
    const selector = get(o, 'spec', 'selector');
    const parts = Object.entries(
      isJsonObject(get(selector, 'matchLabels')) ? (get(selector, 'matchLabels') as Json) : {},
    ).map(([key, value]) => `${key}=${String(value)}`);
    for (const expression of arr(get(selector, 'matchExpressions'))) {
      const key = String(get(expression, 'key') ?? '');
      const values = arr(get(expression, 'values')).map(String).join(',');
      const operator = String(get(expression, 'operator') ?? '');
      if (operator === 'Exists') parts.push(key);
      else if (operator === 'DoesNotExist') parts.push(`!${key}`);
      else parts.push(`${key} ${operator.toLowerCase()} (${values})`);
    }
    return parts.length > 0 ? parts.join(',') : '<none>';
  },
  '@eventLastSeen': (o) =>
    get(o, 'lastTimestamp') ?? get(o, 'eventTime') ?? get(o, 'metadata', 'creationTimestamp'),
  '@eventObject': (o) =>
    `${String(get(o, 'involvedObject', 'kind') ?? '').toLowerCase()}/${String(get(o, 'involvedObject', 'name') ?? '')}`,
};

/**
 * The STATUS of `kubectl get pods`, by kube's printPod rules: the phase (or `status.reason`);
 * `Init:` states while init containers have not all completed; then, last container first,
 * a waiting container's reason, or a terminated one's (`Completed`, `Error`, else
 * `Signal:<n>` / `ExitCode:<n>`); `Completed` with a container still running reads `Running`
 * (`NotReady` without a Ready condition); `Terminating` for a Pod being deleted that has not
 * ended.
 */
function podStatus(o: Json): string {
  const phase = String(get(o, 'status', 'phase') ?? '');
  let reason = String(get(o, 'status', 'reason') ?? '') || phase || 'Unknown';
  const conditions = arr(get(o, 'status', 'conditions'));
  const terminatedReason = (state: unknown, prefix: string): string | undefined => {
    const terminated = get(state, 'terminated');
    if (!isJsonObject(terminated)) return undefined;
    if (typeof terminated.reason === 'string' && terminated.reason !== '')
      return `${prefix}${terminated.reason}`;
    return Number(terminated.signal ?? 0) !== 0
      ? `${prefix}Signal:${Number(terminated.signal)}`
      : `${prefix}ExitCode:${Number(terminated.exitCode ?? 0)}`;
  };
  const initSpecs = arr(get(o, 'spec', 'initContainers'));
  let initializing = false;
  arr(get(o, 'status', 'initContainerStatuses')).some((status, index) => {
    const state = get(status, 'state');
    if (get(state, 'terminated', 'exitCode') === 0) return false;
    if (get(initSpecs[index], 'restartPolicy') === 'Always' && get(status, 'started') === true)
      return false;
    initializing = true;
    const waiting = get(state, 'waiting', 'reason');
    reason =
      terminatedReason(state, 'Init:') ??
      (typeof waiting === 'string' && waiting !== '' && waiting !== 'PodInitializing'
        ? `Init:${waiting}`
        : `Init:${index}/${initSpecs.length}`);
    return true;
  });
  const initialized = conditions.some(
    (c) => get(c, 'type') === 'Initialized' && get(c, 'status') === 'True',
  );
  if (!initializing || initialized) {
    let hasRunning = false;
    const statuses = arr(get(o, 'status', 'containerStatuses'));
    for (let i = statuses.length - 1; i >= 0; i--) {
      const state = get(statuses[i], 'state');
      const waiting = get(state, 'waiting', 'reason');
      const terminated = terminatedReason(state, '');
      if (typeof waiting === 'string' && waiting !== '') reason = waiting;
      else if (terminated !== undefined) reason = terminated;
      else if (get(statuses[i], 'ready') === true && isJsonObject(get(state, 'running')))
        hasRunning = true;
    }
    if (reason === 'Completed' && hasRunning)
      reason = conditions.some((c) => get(c, 'type') === 'Ready' && get(c, 'status') === 'True')
        ? 'Running'
        : 'NotReady';
  }
  if (get(o, 'metadata', 'deletionTimestamp')) {
    if (get(o, 'status', 'reason') === 'NodeLost') reason = 'Unknown';
    else if (phase !== 'Succeeded' && phase !== 'Failed') reason = 'Terminating';
  }
  return reason;
}

function get(value: unknown, ...path: string[]): unknown {
  let node = value;
  for (const part of path) {
    if (!isJsonObject(node)) return undefined;
    node = node[part];
  }
  return node;
}

function arr(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function cell(column: PrinterColumn, object: Json, now: number, builtin: boolean): unknown {
  if (!builtin) return customColumnCell(column.type, readJsonPath(object, column.jsonPath), now);
  const raw = column.jsonPath.startsWith('@')
    ? computed[column.jsonPath]?.(object)
    : readJsonPath(object, column.jsonPath);
  if (column.type === 'date') {
    if (typeof raw !== 'string') return '<unknown>';
    const then = Date.parse(raw);
    return Number.isNaN(then) ? '<invalid>' : humanDuration((now - then) / 1000);
  }
  if (raw === undefined || raw === null) {
    // Built-in printers print omitted counts (Go's omitempty zeros) as 0.
    if (column.type === 'integer') return 0;
    return column.jsonPath.startsWith('@') ? '<none>' : null;
  }
  if (typeof raw === 'object') return JSON.stringify(raw);
  return raw;
}

/** What a row carries besides its cells, by the request's `includeObject`. */
function rowObject(object: KubernetesObject, request: TableRequest | undefined): unknown {
  switch (request?.includeObject ?? 'Metadata') {
    case 'None':
      return null;
    case 'Object':
      return object;
    default:
      return {
        kind: 'PartialObjectMetadata',
        apiVersion: 'meta.k8s.io/v1',
        metadata: object.metadata ?? {},
      };
  }
}

/**
 * The columns a resource prints: Name, then its own. A custom resource without
 * additionalPrinterColumns prints Age, as kube-apiserver's default table convertor; with them,
 * only those (an Age column is the CRD's to declare).
 */
function columnsOf(type: ResourceType): PrinterColumn[] {
  const columns = [...type.printerColumns];
  if (type.custom && columns.length === 0) {
    columns.push({ name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' });
  }
  return columns;
}

/** The Name column's description, as kube-apiserver writes it (ObjectMeta's `name` doc). */
const nameColumnDescription =
  'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names';

/**
 * A `meta.k8s.io/v1` Table of objects, as kube-apiserver serves `kubectl get`: the Name
 * column, then the resource's printer columns; each row carries what `request.includeObject`
 * asks for (the object's metadata by default). `withColumns: false` leaves the column
 * definitions out (`null`), as kube does for every watch event after the first.
 */
export function toTable(
  type: ResourceType,
  objects: readonly KubernetesObject[],
  resourceVersion: string,
  extra: Json = {},
  request?: TableRequest,
  withColumns = true,
): Json {
  const now = Date.now();
  const columns = columnsOf(type);
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: { resourceVersion, ...extra },
    columnDefinitions: withColumns
      ? [
          {
            name: 'Name',
            type: 'string',
            format: 'name',
            description: nameColumnDescription,
            priority: 0,
          },
          ...columns.map((c) => ({
            name: c.name,
            type: c.type,
            format: c.format ?? '',
            description:
              c.description ??
              (type.custom
                ? `Custom resource definition column (in JSONPath format): ${c.jsonPath}`
                : ''),
            priority: c.priority ?? 0,
          })),
        ]
      : null,
    rows: objects.map((object) => ({
      cells: [
        object.metadata?.name ?? '',
        ...columns.map((c) => cell(c, object as Json, now, !type.custom)),
      ],
      object: rowObject(object, request),
    })),
  };
}
