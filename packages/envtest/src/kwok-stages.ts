import { podExitCodeAnnotation, podRunDurationAnnotation } from '@ops/apiserver';

/** A kwok `Stage` (kwok.x-k8s.io/v1alpha1), as kwok-controller reads it from its config. */
export interface KwokStage {
  apiVersion: 'kwok.x-k8s.io/v1alpha1';
  kind: 'Stage';
  metadata: { name: string };
  spec: {
    resourceRef: { apiGroup: 'v1'; kind: 'Node' | 'Pod' };
    selector: {
      matchExpressions: Array<{ key: string; operator: string; values?: string[] }>;
    };
    delay?: {
      durationMilliseconds: number;
      durationFrom?: { expressionFrom: string };
      jitterDurationMilliseconds?: number;
    };
    next: { statusTemplate?: string; delete?: boolean };
  };
}

/** Options of {@link kwokStages}. */
export interface KwokStagesOptions {
  /** Run time of a finishing Pod without the run-duration annotation, in ms. */
  defaultRunDurationMs: number;
  /** Period of the fake nodes' condition heartbeats, in ms (default 60 s). */
  nodeHeartbeatMs?: number;
}

/** A jq path to an annotation of the object. */
const annotation = (name: string) => `.metadata.annotations["${name}"]`;

const notDeleted = { key: '.metadata.deletionTimestamp', operator: 'DoesNotExist' };
const readyStatus = '.status.conditions.[] | select( .type == "Ready" ) | .status';
const finishing = { key: '.spec.restartPolicy', operator: 'In', values: ['Never', 'OnFailure'] };

/** The Node status a kubelet reports: Ready, no pressure, room for every test's Pods. */
const nodeConditions = `{{ $now := Now }}
{{ $since := or .metadata.creationTimestamp $now }}
conditions:
{{ range $condition := list
    (list "Ready" "True" "KubeletReady" "kubelet is posting ready status (kwok)")
    (list "MemoryPressure" "False" "KubeletHasSufficientMemory" "kubelet has sufficient memory available")
    (list "DiskPressure" "False" "KubeletHasNoDiskPressure" "kubelet has no disk pressure")
    (list "PIDPressure" "False" "KubeletHasSufficientPID" "kubelet has sufficient PID available") }}
- type: {{ index $condition 0 | Quote }}
  status: {{ index $condition 1 | Quote }}
  reason: {{ index $condition 2 | Quote }}
  message: {{ index $condition 3 | Quote }}
  lastHeartbeatTime: {{ $now | Quote }}
  lastTransitionTime: {{ $since | Quote }}
{{ end }}`;

const nodeReadyTemplate = `${nodeConditions}
addresses:
- type: Hostname
  address: {{ .metadata.name | Quote }}
{{ with NodeIP }}
- type: InternalIP
  address: {{ . | Quote }}
{{ end }}
capacity:
  cpu: "32"
  memory: 256Gi
  pods: "1000"
allocatable:
  cpu: "32"
  memory: 256Gi
  pods: "1000"
nodeInfo:
  architecture: amd64
  operatingSystem: linux
  kubeletVersion: {{ printf "kwok-%s" Version | Quote }}
  kubeProxyVersion: {{ printf "kwok-%s" Version | Quote }}
  containerRuntimeVersion: {{ printf "kwok-%s" Version | Quote }}
  kernelVersion: {{ printf "kwok-%s" Version | Quote }}
  osImage: kwok
  machineID: ""
  bootID: ""
  systemUUID: ""
phase: Running`;

/** Pending -> Running and Ready: every container started, init containers completed. */
const podRunningTemplate = `{{ $now := Now }}
conditions:
{{ range $type := list "PodReadyToStartContainers" "Initialized" "ContainersReady" "Ready" }}
- type: {{ $type | Quote }}
  status: "True"
  lastTransitionTime: {{ $now | Quote }}
{{ end }}
{{ range .spec.readinessGates }}
- type: {{ .conditionType | Quote }}
  status: "True"
  lastTransitionTime: {{ $now | Quote }}
{{ end }}
initContainerStatuses:
{{ range .spec.initContainers }}
- name: {{ .name | Quote }}
  image: {{ .image | Quote }}
  imageID: ""
  restartCount: 0
  {{ if eq (or .restartPolicy "") "Always" }}
  ready: true
  started: true
  state:
    running:
      startedAt: {{ $now | Quote }}
  {{ else }}
  ready: true
  started: false
  state:
    terminated:
      exitCode: 0
      reason: Completed
      startedAt: {{ $now | Quote }}
      finishedAt: {{ $now | Quote }}
  {{ end }}
{{ end }}
containerStatuses:
{{ range .spec.containers }}
- name: {{ .name | Quote }}
  image: {{ .image | Quote }}
  imageID: ""
  restartCount: 0
  ready: true
  started: true
  state:
    running:
      startedAt: {{ $now | Quote }}
{{ end }}
{{ with NodeIPWith .spec.nodeName }}
hostIP: {{ . | Quote }}
hostIPs:
- ip: {{ . | Quote }}
{{ end }}
{{ with PodIPWith .spec.nodeName (or .spec.hostNetwork false) (or .metadata.uid "") (or .metadata.name "") (or .metadata.namespace "") }}
podIP: {{ . | Quote }}
podIPs:
- ip: {{ . | Quote }}
{{ end }}
phase: Running
startTime: {{ $now | Quote }}`;

/**
 * Running -> finished: each container terminated with the exit code that `setExitCode` (template
 * text) assigns to `$exitCode`, and `reason`, from the time it started running; Ready and
 * ContainersReady false.
 */
function podFinishedTemplate(setExitCode: string, reason: string, phase: string): string {
  return `{{ $now := Now }}
{{ $pod := . }}
${setExitCode}
conditions:
{{ range $type := list "ContainersReady" "Ready" }}
- type: {{ $type | Quote }}
  status: "False"
  reason: PodCompleted
  lastTransitionTime: {{ $now | Quote }}
{{ end }}
containerStatuses:
{{ range $index, $container := .spec.containers }}
{{ $startedAt := $now }}
{{ range $pod.status.containerStatuses }}
{{ if and (eq .name $container.name) .state.running }}
{{ $startedAt = .state.running.startedAt }}
{{ end }}
{{ end }}
- name: {{ $container.name | Quote }}
  image: {{ $container.image | Quote }}
  imageID: ""
  restartCount: 0
  ready: false
  started: false
  state:
    terminated:
      exitCode: {{ $exitCode }}
      reason: ${reason}
      startedAt: {{ $startedAt | Quote }}
      finishedAt: {{ $now | Quote }}
{{ end }}
phase: ${phase}`;
}

/**
 * The exit code of a failing Pod: the annotation's value when it is an integer from 1 to 255,
 * else 1 (kwok cannot refuse a bad value, so it fails the Pod rather than run it forever).
 */
const failedExitCode = `{{ $value := index .metadata.annotations "${podExitCodeAnnotation}" }}
{{ $exitCode := 1 }}
{{ if regexMatch "^[0-9]{1,3}$" $value }}
{{ if and (gt (atoi $value) 0) (le (atoi $value) 255) }}
{{ $exitCode = atoi $value }}
{{ end }}
{{ end }}`;

/**
 * The kwok stages of envtest's `cluster` plane: fake Nodes become Ready and keep heartbeating;
 * Pods bound to them go Running and Ready; Pods with `restartPolicy` Never or OnFailure finish
 * after the {@link podRunDurationAnnotation} (default `defaultRunDurationMs`) with the
 * {@link podExitCodeAnnotation}: exit code 0 -> Succeeded/Completed, else Failed/Error; Pods
 * with `restartPolicy: Always` keep running; Pods being deleted are deleted (no kubelet
 * waits for their containers). These replace kwokctl's default stages.
 */
export function kwokStages(options: KwokStagesOptions): KwokStage[] {
  const exitCode = `${annotation(podExitCodeAnnotation)} // "0"`;
  const runDelay = {
    durationMilliseconds: options.defaultRunDurationMs,
    durationFrom: { expressionFrom: annotation(podRunDurationAnnotation) },
  };
  const heartbeat = options.nodeHeartbeatMs ?? 60_000;
  const stage = (
    name: string,
    kind: 'Node' | 'Pod',
    matchExpressions: KwokStage['spec']['selector']['matchExpressions'],
    next: KwokStage['spec']['next'],
    delay?: KwokStage['spec']['delay'],
  ): KwokStage => ({
    apiVersion: 'kwok.x-k8s.io/v1alpha1',
    kind: 'Stage',
    metadata: { name },
    spec: {
      resourceRef: { apiGroup: 'v1', kind },
      selector: { matchExpressions },
      ...(delay ? { delay } : {}),
      next,
    },
  });
  return [
    stage('ops-node-ready', 'Node', [{ key: readyStatus, operator: 'NotIn', values: ['True'] }], {
      statusTemplate: nodeReadyTemplate,
    }),
    stage(
      'ops-node-heartbeat',
      'Node',
      [
        { key: '.status.phase', operator: 'In', values: ['Running'] },
        { key: readyStatus, operator: 'In', values: ['True'] },
      ],
      { statusTemplate: nodeConditions },
      { durationMilliseconds: heartbeat, jitterDurationMilliseconds: heartbeat + heartbeat / 10 },
    ),
    stage(
      'ops-pod-running',
      'Pod',
      [
        notDeleted,
        { key: '.status.phase', operator: 'In', values: ['Pending'] },
        { key: readyStatus, operator: 'NotIn', values: ['True'] },
      ],
      { statusTemplate: podRunningTemplate },
    ),
    stage(
      'ops-pod-succeeded',
      'Pod',
      [
        notDeleted,
        { key: '.status.phase', operator: 'In', values: ['Running'] },
        finishing,
        { key: exitCode, operator: 'In', values: ['0'] },
      ],
      { statusTemplate: podFinishedTemplate('{{ $exitCode := 0 }}', 'Completed', 'Succeeded') },
      runDelay,
    ),
    stage(
      'ops-pod-failed',
      'Pod',
      [
        notDeleted,
        { key: '.status.phase', operator: 'In', values: ['Running'] },
        finishing,
        { key: exitCode, operator: 'NotIn', values: ['0'] },
      ],
      { statusTemplate: podFinishedTemplate(failedExitCode, 'Error', 'Failed') },
      runDelay,
    ),
    stage('ops-pod-delete', 'Pod', [{ key: '.metadata.deletionTimestamp', operator: 'Exists' }], {
      delete: true,
    }),
  ];
}
