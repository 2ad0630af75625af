import { ConditionsSchema } from '@ops/core';
import type { CustomResourceVersionOptions } from '@ops/core/crd';
import { Type } from '@sinclair/typebox';
import { PodTemplateSpecSchema } from './pod-template-spec.js';

/** `status.phase` of a MyJob: `pending` until its Pod runs, `running`, then `completed`. */
export const myJobPhases = ['pending', 'running', 'completed'] as const;
/** One of {@link myJobPhases}. */
export type MyJobPhase = (typeof myJobPhases)[number];

const timestamp = (description: string) =>
  Type.Optional(Type.String({ format: 'date-time', description }));

/** `spec` of a MyJob, the same in v1beta1 and v1. */
export const myJobSpecSchema = Type.Object(
  { template: PodTemplateSpecSchema },
  { description: 'The desired state of the MyJob.' },
);

/**
 * The `status` fields v1beta1 and v1 share: all but how the containers' exit codes are
 * reported (v1beta1's `exitCodes` map, v1's `containers` list).
 */
export const myJobStatusFields = {
  phase: Type.Optional(
    Type.Union(
      myJobPhases.map((phase) => Type.Literal(phase)),
      {
        description:
          'pending: the Pod is not running yet; running: it runs; completed: it ended (Succeeded, Failed, or deleted) and is never started again.',
      },
    ),
  ),
  observedGeneration: Type.Optional(
    Type.Integer({ format: 'int64', description: 'The generation the status describes.' }),
  ),
  podPhase: Type.Optional(
    Type.String({
      description:
        "The Pod's last phase seen: Pending, Running, Succeeded or Failed; Deleted when it was deleted before it finished.",
    }),
  ),
  podUID: Type.Optional(
    Type.String({
      description:
        'The uid of the Pod this MyJob created: once set, a missing Pod means it was deleted, and no other is made.',
    }),
  ),
  startTime: timestamp('When the Pod started (its status.startTime).'),
  completionTime: timestamp('When the MyJob saw its Pod end.'),
  conditions: Type.Optional(ConditionsSchema),
};

/** The columns of `kubectl get myjobs`, the same in v1beta1 and v1. */
export const myJobPrinterColumns = [
  { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
  { name: 'Pod Phase', type: 'string', jsonPath: '.status.podPhase' },
  {
    name: 'Ready',
    type: 'string',
    jsonPath: '.status.conditions[?(@.type=="Ready")].status',
  },
  {
    name: 'Reason',
    type: 'string',
    jsonPath: '.status.conditions[?(@.type=="Completed")].reason',
    priority: 1,
  },
  { name: 'Started', type: 'date', jsonPath: '.status.startTime', priority: 1 },
  { name: 'Completed', type: 'date', jsonPath: '.status.completionTime', priority: 1 },
  { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
] as const;

/**
 * `myjob.github.com/v1beta1` of MyJob: the first version, still served, no longer stored.
 * v1 (the storage version and the hub) reports the exit codes as a list; v1beta1 keeps its
 * `status.exitCodes` map, converted by ./my-job-conversion.ts through the conversion webhook.
 * Listed in the versions of myJobResource (../v1/my-job.ts).
 */
export const myJobV1beta1 = {
  name: 'v1beta1',
  served: true,
  storage: false,
  spec: myJobSpecSchema,
  status: Type.Object(
    {
      ...myJobStatusFields,
      exitCodes: Type.Optional(
        Type.Record(Type.String(), Type.Integer(), {
          description: "The exit code of each of the Pod's containers that ended, by name.",
        }),
      ),
    },
    { description: 'The observed state of the MyJob.' },
  ),
  subresources: { status: true },
  printerColumns: [...myJobPrinterColumns],
} as const satisfies CustomResourceVersionOptions;
