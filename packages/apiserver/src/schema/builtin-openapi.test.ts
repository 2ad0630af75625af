import { describe, expect, it } from 'vitest';
import { builtinComponents, builtinKindSchema, referencedComponents } from './builtin-openapi.js';

const component = (name: string) => {
  const found = builtinComponents()[name];
  if (found === undefined) throw new Error(`no component ${name}`);
  return found.properties as Record<string, unknown>;
};

describe('built-in OpenAPI schemas from the vendored protobuf definitions', () => {
  it('type a kind with apiVersion, kind and its message fields, by kube-apiserver names', () => {
    const pod = builtinKindSchema('v1', 'Pod');
    expect(pod?.properties).toEqual({
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: { $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' },
      spec: { $ref: '#/components/schemas/io.k8s.api.core.v1.PodSpec' },
      status: { $ref: '#/components/schemas/io.k8s.api.core.v1.PodStatus' },
    });
    expect(builtinKindSchema('example.com/v1', 'Widget')).toBeUndefined();
  });

  it('carry the fields of the pinned Kubernetes (1.37), with kube types and formats', () => {
    const podSpec = component('io.k8s.api.core.v1.PodSpec');
    expect(podSpec.hostnameOverride).toEqual({ type: 'string' });
    expect(podSpec.containers).toEqual({
      type: 'array',
      items: { $ref: '#/components/schemas/io.k8s.api.core.v1.Container' },
    });
    expect(podSpec.nodeSelector).toEqual({
      type: 'object',
      additionalProperties: { type: 'string' },
    });
    expect(podSpec.activeDeadlineSeconds).toEqual({ type: 'integer', format: 'int64' });
    expect(component('io.k8s.api.apps.v1.DeploymentStatus').terminatingReplicas).toEqual({
      type: 'integer',
      format: 'int32',
    });
    expect(component('io.k8s.api.core.v1.Secret').data).toEqual({
      type: 'object',
      additionalProperties: { type: 'string', format: 'byte' },
    });
  });

  it('merge inline structs and give Kubernetes JSON forms their schemas', () => {
    const volume = component('io.k8s.api.core.v1.Volume');
    expect(volume.volumeSource).toBeUndefined();
    expect(volume.configMap).toEqual({
      $ref: '#/components/schemas/io.k8s.api.core.v1.ConfigMapVolumeSource',
    });
    expect(component('io.k8s.api.authorization.v1.SubjectAccessReviewSpec').extra).toEqual({
      type: 'object',
      additionalProperties: { type: 'array', items: { type: 'string' } },
    });
    expect(builtinComponents()['io.k8s.apimachinery.pkg.util.intstr.IntOrString']).toEqual({
      type: 'string',
      format: 'int-or-string',
    });
    expect(builtinComponents()['io.k8s.apimachinery.pkg.apis.meta.v1.Time']).toEqual({
      type: 'string',
      format: 'date-time',
    });
  });

  it('reference only components that exist', () => {
    const deployment = builtinKindSchema('apps/v1', 'Deployment');
    if (deployment === undefined) throw new Error('no Deployment schema');
    const reached = referencedComponents(deployment);
    expect(reached.has('io.k8s.api.core.v1.PodTemplateSpec')).toBe(true);
    expect(reached.has('io.k8s.apimachinery.pkg.util.intstr.IntOrString')).toBe(true);
    for (const name of reached) expect(builtinComponents()[name], name).toBeDefined();
  });
});
