import type { KubernetesObject, ObjectMeta } from '@ops/api';
import { Type } from '@sinclair/typebox';
import { describe, expectTypeOf, it } from 'vitest';
import type { ControllerBuilder } from '../controller/controller-builder.js';
import { and, generationChanged, not, or, type Predicate } from '../controller/predicates.js';
import type { Request } from '../controller/reconcile.js';
import { type CustomResource, defineCustomResource } from '../crd/custom-resource.js';
import { type ObjectOf, objectKind, type ResourceKind } from '../crd/object-kind.js';
import type { ResourceDescriptor } from '../kinds/resource-descriptor.js';
import {
  type ConfigMap,
  configMaps,
  type Deployment,
  deployments,
  type Event,
  events,
  type Job,
  type jobs,
  type Namespace,
  namespaces,
  type Pod,
  pods,
  type Service,
  services,
} from './built-in-kinds.js';
import type { Client, ObjectList } from './client.js';

// Type-level proofs (checked by `pnpm typecheck`, which covers test files): what the client
// and the controller builder give for the built-in kinds. The functions below are never
// called; each `it` names the one whose body holds its assertions.

const application = defineCustomResource({
  group: 'core.crd.lixueduan.com',
  kind: 'Application',
  plural: 'applications',
  scope: 'Namespaced',
  versions: [{ name: 'v1', spec: Type.Object({ image: Type.String() }) }],
});

async function clientCalls(client: Client) {
  const deployment = await client.get(deployments, 'web', 'default');
  expectTypeOf(deployment).toEqualTypeOf<Deployment>();
  expectTypeOf(deployment.apiVersion).toEqualTypeOf<'apps/v1'>();
  expectTypeOf(deployment.kind).toEqualTypeOf<'Deployment'>();
  expectTypeOf(deployment.metadata).toEqualTypeOf<ObjectMeta>();
  expectTypeOf(deployment.spec?.replicas).toEqualTypeOf<number | undefined>();
  expectTypeOf(deployment.status?.readyReplicas).toEqualTypeOf<number | undefined>();
  // Timestamps are what JSON.parse gives: strings.
  expectTypeOf(deployment.metadata.creationTimestamp).toEqualTypeOf<string | undefined>();
  expectTypeOf(deployment.status?.conditions?.[0]?.lastTransitionTime).toEqualTypeOf<
    string | undefined
  >();

  const podList = await client.list(pods, { namespace: 'default' });
  expectTypeOf(podList).toEqualTypeOf<ObjectList<Pod>>();
  expectTypeOf(podList.items[0]?.spec?.containers[0]?.image).toEqualTypeOf<string | undefined>();
  expectTypeOf(podList.items[0]?.status?.podIP).toEqualTypeOf<string | undefined>();

  const namespace = await client.get(namespaces, 'default');
  expectTypeOf(namespace).toEqualTypeOf<Namespace>();
  expectTypeOf((await client.list(events)).items).toEqualTypeOf<Event[]>();

  const created = await client.create({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'settings', namespace: 'default' },
    data: { mode: 'fast' },
  } satisfies ConfigMap);
  expectTypeOf(created.data).toEqualTypeOf<{ mode: string }>();
  const typed: ConfigMap = created;
  expectTypeOf(await client.create(typed)).toEqualTypeOf<ConfigMap>();
  expectTypeOf(await client.update(deployment)).toEqualTypeOf<Deployment>();
  expectTypeOf(await client.apply(deployment)).toEqualTypeOf<Deployment>();

  // An int-or-string port is either; a wrong apiVersion or field type is refused.
  const service: Service = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'web' },
    spec: { ports: [{ port: 80, targetPort: 'http' }] },
  };
  expectTypeOf(service.spec?.ports?.[0]?.targetPort).toEqualTypeOf<number | string | undefined>();
  const wrongVersion: Job = {
    // @ts-expect-error a Job is batch/v1
    apiVersion: 'v1',
    kind: 'Job',
    metadata: { name: 'once' },
  };
  const wrongField: Deployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web' },
    // @ts-expect-error replicas is a number
    spec: { replicas: 'three', selector: {}, template: {} },
  };
  // @ts-expect-error metadata is required: the server always returns it
  const noMetadata: Pod = { apiVersion: 'v1', kind: 'Pod' };
  return [wrongVersion, wrongField, noMetadata];
}

function builderCalls(builder: ControllerBuilder) {
  const onlyScaled: Predicate<Deployment> = (event) =>
    event.object.spec?.replicas !== event.old?.spec?.replicas;
  builder
    .for(application, {
      predicates: [
        generationChanged,
        (event) => {
          expectTypeOf(event.object).toEqualTypeOf<CustomResource<typeof application>>();
          return event.object.spec.image !== '';
        },
      ],
    })
    .owns(deployments, {
      predicates: [
        onlyScaled,
        (event) => {
          expectTypeOf(event.object).toEqualTypeOf<Deployment>();
          return true;
        },
      ],
    })
    .watches(pods, (pod) => {
      expectTypeOf(pod).toEqualTypeOf<Pod>();
      const owner = pod.metadata.ownerReferences?.[0];
      return owner ? [{ name: owner.name, namespace: pod.metadata.namespace ?? '' }] : [];
    })
    .watches(configMaps, (configMap): Request[] => {
      expectTypeOf(configMap.data).toEqualTypeOf<Record<string, string> | undefined>();
      return [];
    })
    // An untyped kind gives any object.
    .watches({ apiVersion: 'v1', kind: 'Secret' }, (secret) => {
      expectTypeOf(secret).toEqualTypeOf<KubernetesObject>();
      return [];
    });
  // Combined with a predicate of any object, a predicate of Deployments stays one.
  const scaledOrNew = or(onlyScaled, not(generationChanged));
  expectTypeOf(scaledOrNew).toEqualTypeOf<Predicate<Deployment>>();
  builder.owns(deployments, { predicates: [and(scaledOrNew, generationChanged)] });
  // A predicate of Deployments does not fit a kind of Pods.
  // @ts-expect-error Predicate<Deployment> is not a Predicate<Pod>
  builder.owns(pods, { predicates: [onlyScaled] });
}

describe('built-in kinds, typed', () => {
  it('type what the client reads and writes (clientCalls)', () => {
    expectTypeOf(clientCalls).parameter(0).toEqualTypeOf<Client>();
  });

  it("type the builder's for, owns and watches (builderCalls)", () => {
    expectTypeOf(builderCalls).parameter(0).toEqualTypeOf<ControllerBuilder>();
  });

  it('are resource kinds of their object types, with their descriptor', () => {
    expectTypeOf(deployments).toEqualTypeOf<ResourceKind<Deployment>>();
    expectTypeOf<ObjectOf<typeof deployments>>().toEqualTypeOf<Deployment>();
    expectTypeOf<ObjectOf<typeof jobs>>().toEqualTypeOf<Job>();
    expectTypeOf(services.descriptor).toEqualTypeOf<ResourceDescriptor>();
    expectTypeOf<Deployment>().toExtend<KubernetesObject>();
    expectTypeOf<Pod>().toExtend<KubernetesObject>();
    // objectKind with a resource gives a ResourceKind; without, a plain ObjectKind.
    expectTypeOf(objectKind<Pod>('v1', 'Pod', { plural: 'pods', namespaced: true })).toEqualTypeOf<
      ResourceKind<Pod>
    >();
    expectTypeOf(objectKind<Pod>('v1', 'Pod')).not.toHaveProperty('descriptor');
  });
});
