import { PreserveUnknownFields } from '@ops/core';
import { Type } from '@sinclair/typebox';

const EnvVarSchema = PreserveUnknownFields(
  Type.Object({
    name: Type.String({ minLength: 1, description: 'Name of the environment variable.' }),
    value: Type.Optional(Type.String({ description: 'Its value (or valueFrom).' })),
  }),
  { description: 'An environment variable of the container (valueFrom is kept as written).' },
);

/**
 * A container to inject (`core/v1` Container): the fields a sidecar usually sets are
 * declared, so `kubectl explain` shows them; everything else a Container has (ports,
 * probes, resources, volumeMounts, securityContext ...) is kept as written and reaches the
 * Pod unchanged, where the API server validates it as part of the Pod.
 */
export const ContainerSchema = PreserveUnknownFields(
  Type.Object({
    name: Type.String({
      minLength: 1,
      description: 'Name of the container (a DNS label), unique in the Pod.',
    }),
    image: Type.Optional(Type.String({ description: 'The container image to run.' })),
    command: Type.Optional(
      Type.Array(Type.String(), { description: "The entrypoint (replaces the image's)." }),
    ),
    args: Type.Optional(Type.Array(Type.String(), { description: 'Arguments to the entrypoint.' })),
    env: Type.Optional(Type.Array(EnvVarSchema, { description: 'Environment variables.' })),
  }),
  { description: 'A container to inject into matching Pods.' },
);
