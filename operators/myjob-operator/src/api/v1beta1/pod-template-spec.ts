import { IntOrString, PreserveUnknownFields } from '@ops/core';
import { Type } from '@sinclair/typebox';

const stringMap = (description: string) =>
  Type.Optional(Type.Record(Type.String(), Type.String(), { description }));
const strings = (description: string) => Type.Optional(Type.Array(Type.String(), { description }));
/** A part of the upstream schema kept as written but not spelled out here (see the README). */
const kept = (description: string) => Type.Optional(PreserveUnknownFields({ description }));

const EnvVarSchema = Type.Object(
  {
    name: Type.String({ minLength: 1, description: 'Name of the environment variable.' }),
    value: Type.Optional(Type.String({ description: 'Its value (or use valueFrom).' })),
    valueFrom: kept('A source for the value: configMapKeyRef, secretKeyRef, fieldRef, ...'),
  },
  { description: 'An environment variable of a container.' },
);

const ContainerPortSchema = Type.Object(
  {
    name: Type.Optional(Type.String({ description: 'An IANA_SVC_NAME for the port.' })),
    containerPort: Type.Integer({ minimum: 1, maximum: 65535, description: 'The port number.' }),
    protocol: Type.Optional(
      Type.Union([Type.Literal('TCP'), Type.Literal('UDP'), Type.Literal('SCTP')], {
        description: 'TCP (default), UDP or SCTP.',
      }),
    ),
    hostPort: Type.Optional(Type.Integer({ description: 'The port on the host, if any.' })),
    hostIP: Type.Optional(Type.String({ description: 'The host IP to bind hostPort to.' })),
  },
  { description: 'A port the container exposes.' },
);

const ResourcesSchema = Type.Object(
  {
    limits: Type.Optional(
      Type.Record(Type.String(), IntOrString(), {
        description: 'The most of each resource (cpu, memory, ...) the container may use.',
      }),
    ),
    requests: Type.Optional(
      Type.Record(Type.String(), IntOrString(), {
        description: 'The amount of each resource the container needs to be scheduled.',
      }),
    ),
  },
  { description: 'Compute resources of the container.' },
);

const VolumeMountSchema = PreserveUnknownFields(
  Type.Object({
    name: Type.String({ minLength: 1, description: 'The name of a volume of the Pod.' }),
    mountPath: Type.String({ minLength: 1, description: 'Where to mount it in the container.' }),
    readOnly: Type.Optional(Type.Boolean({ description: 'Mount read-only.' })),
    subPath: Type.Optional(Type.String({ description: 'A path within the volume.' })),
  }),
  { description: 'A volume mounted into the container.' },
);

/**
 * A container of the Pod: the fields a job's container uses are declared (and shown by
 * `kubectl explain`); probes, lifecycle hooks and securityContext are kept as written.
 */
const ContainerSchema = PreserveUnknownFields(
  Type.Object({
    name: Type.String({ minLength: 1, description: 'Name of the container (a DNS label).' }),
    image: Type.Optional(Type.String({ description: 'The container image to run.' })),
    imagePullPolicy: Type.Optional(
      Type.Union([Type.Literal('Always'), Type.Literal('IfNotPresent'), Type.Literal('Never')], {
        description: 'Always, IfNotPresent or Never.',
      }),
    ),
    command: strings("The entrypoint (replaces the image's ENTRYPOINT)."),
    args: strings("Arguments to the entrypoint (replace the image's CMD)."),
    workingDir: Type.Optional(Type.String({ description: 'The working directory.' })),
    env: Type.Optional(Type.Array(EnvVarSchema, { description: 'Environment variables.' })),
    envFrom: Type.Optional(
      Type.Array(PreserveUnknownFields(), {
        description: 'Sources of environment variables (configMapRef, secretRef, prefix).',
      }),
    ),
    ports: Type.Optional(Type.Array(ContainerPortSchema, { description: 'Exposed ports.' })),
    resources: Type.Optional(ResourcesSchema),
    volumeMounts: Type.Optional(
      Type.Array(VolumeMountSchema, { description: 'Volumes mounted into the container.' }),
    ),
    securityContext: kept('Security options of the container (upstream SecurityContext).'),
    livenessProbe: kept('Upstream Probe.'),
    readinessProbe: kept('Upstream Probe.'),
    startupProbe: kept('Upstream Probe.'),
    lifecycle: kept('Upstream Lifecycle: postStart and preStop hooks.'),
    stdin: Type.Optional(Type.Boolean({ description: 'Allocate a buffer for stdin.' })),
    tty: Type.Optional(Type.Boolean({ description: 'Allocate a TTY.' })),
    terminationMessagePath: Type.Optional(
      Type.String({ description: 'Termination message file.' }),
    ),
    terminationMessagePolicy: Type.Optional(
      Type.Union([Type.Literal('File'), Type.Literal('FallbackToLogsOnError')], {
        description: 'File or FallbackToLogsOnError.',
      }),
    ),
  }),
  { description: 'A container (upstream Container).' },
);

/**
 * The Pod's metadata in a template: what the MyJob carries over to its Pod. The Pod's name
 * and namespace are always the MyJob's, so `name` here is accepted (the sample has one) but
 * not used.
 */
const TemplateMetadataSchema = Type.Object(
  {
    name: Type.Optional(
      Type.String({ description: 'Ignored: the Pod is always named after the MyJob.' }),
    ),
    labels: stringMap('Labels of the Pod.'),
    annotations: stringMap('Annotations of the Pod.'),
  },
  { description: "Metadata of the Pod: its labels and annotations are the Pod's." },
);

/**
 * The Pod's spec (upstream PodSpec). Declared: what a run-to-completion Pod is made of
 * (containers, restartPolicy, scheduling and identity fields); kept as written
 * (`x-kubernetes-preserve-unknown-fields`): volumes, affinity, securityContext and every
 * PodSpec field not declared, whose upstream schemas are too large to inline sensibly.
 */
const PodSpecSchema = PreserveUnknownFields(
  Type.Object({
    containers: Type.Array(ContainerSchema, {
      minItems: 1,
      description: 'The containers of the Pod: at least one.',
    }),
    initContainers: Type.Optional(
      Type.Array(ContainerSchema, {
        description: 'Containers run to completion, in order, first.',
      }),
    ),
    restartPolicy: Type.Optional(
      Type.Union([Type.Literal('Never'), Type.Literal('OnFailure'), Type.Literal('Always')], {
        description:
          'Never or OnFailure for a Pod that runs to completion; Always (the Pod default) never completes on its own.',
      }),
    ),
    activeDeadlineSeconds: Type.Optional(
      Type.Integer({ minimum: 1, format: 'int64', description: 'Seconds the Pod may run.' }),
    ),
    terminationGracePeriodSeconds: Type.Optional(
      Type.Integer({ minimum: 0, format: 'int64', description: 'Seconds to stop gracefully.' }),
    ),
    serviceAccountName: Type.Optional(
      Type.String({ description: 'The ServiceAccount to run as.' }),
    ),
    nodeName: Type.Optional(Type.String({ description: 'Run on this node, unscheduled.' })),
    nodeSelector: stringMap('Labels a node must have to run the Pod.'),
    priorityClassName: Type.Optional(Type.String({ description: 'The PriorityClass.' })),
    hostNetwork: Type.Optional(Type.Boolean({ description: "Use the node's network." })),
    imagePullSecrets: Type.Optional(
      Type.Array(Type.Object({ name: Type.String() }), {
        description: 'Secrets to pull the images with.',
      }),
    ),
    tolerations: Type.Optional(
      Type.Array(
        Type.Object({
          key: Type.Optional(Type.String()),
          operator: Type.Optional(Type.String()),
          value: Type.Optional(Type.String()),
          effect: Type.Optional(Type.String()),
          tolerationSeconds: Type.Optional(Type.Integer({ format: 'int64' })),
        }),
        { description: 'Taints the Pod tolerates.' },
      ),
    ),
    volumes: Type.Optional(
      Type.Array(PreserveUnknownFields(), {
        description: 'Volumes of the Pod (upstream Volume: name and one volume source).',
      }),
    ),
    affinity: kept('Upstream Affinity: node, Pod and anti-Pod affinity.'),
    securityContext: kept('Upstream PodSecurityContext.'),
  }),
  { description: 'The spec of the Pod (upstream PodSpec).' },
);

/**
 * A PodTemplateSpec (upstream `core/v1`): the metadata and spec of the Pod a MyJob runs.
 * `kubectl explain myjob.spec.template` walks it.
 */
export const PodTemplateSpecSchema = Type.Object(
  {
    metadata: Type.Optional(TemplateMetadataSchema),
    spec: PodSpecSchema,
  },
  { description: 'The Pod the MyJob runs to completion (upstream PodTemplateSpec).' },
);
