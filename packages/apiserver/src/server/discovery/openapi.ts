import type { ResourceRegistry } from '../../registry/resource-registry.js';
import { apiVersionOf, type ResourceType } from '../../registry/resource-type.js';
import {
  builtinComponents,
  builtinKindSchema,
  referencedComponents,
} from '../../schema/builtin-openapi.js';
import { openApiInfoVersion } from './discovery.js';

const objectSchema = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };

function definitionName(type: ResourceType): string {
  const group = type.group === '' ? 'core' : type.group.split('.').reverse().join('.');
  return `io.k8s.api.${group}.${type.version}.${type.kind}`.replace(
    /^io\.k8s\.api\.(.*\..*\.)/,
    (m) => (type.custom ? m.replace('io.k8s.api.', '') : m),
  );
}

function schemaOf(type: ResourceType): Record<string, unknown> {
  return withGvk(type, type.schema ?? objectSchema);
}

function withGvk(type: ResourceType, schema: object): Record<string, unknown> {
  const gvk = [{ group: type.group, version: type.version, kind: type.kind }];
  return { ...schema, 'x-kubernetes-group-version-kind': gvk };
}

function pathsFor(type: ResourceType, prefix: string): Record<string, unknown> {
  const ref = { $ref: `#/components/schemas/${definitionName(type)}` };
  const body = { content: { 'application/json': { schema: ref } } };
  const ok = { '200': { description: 'OK', content: { 'application/json': { schema: ref } } } };
  const query = (name: string) => ({
    name,
    in: 'query',
    schema: { type: 'string', uniqueItems: true },
  });
  const writeParams = [query('dryRun'), query('fieldManager'), query('fieldValidation')];
  const collection = type.namespaced
    ? `${prefix}/namespaces/{namespace}/${type.plural}`
    : `${prefix}/${type.plural}`;
  const item = `${collection}/{name}`;
  const action = (verb: string) => ({
    'x-kubernetes-action': verb,
    'x-kubernetes-group-version-kind': {
      group: type.group,
      version: type.version,
      kind: type.kind,
    },
  });
  const paths: Record<string, unknown> = {
    [collection]: {
      get: {
        ...action('list'),
        responses: ok,
        parameters: [
          query('labelSelector'),
          query('fieldSelector'),
          query('limit'),
          query('continue'),
          query('watch'),
        ],
      },
      post: { ...action('post'), requestBody: body, responses: ok, parameters: writeParams },
      delete: { ...action('deletecollection'), responses: ok },
    },
    [item]: {
      get: { ...action('get'), responses: ok },
      put: { ...action('put'), requestBody: body, responses: ok, parameters: writeParams },
      patch: {
        ...action('patch'),
        requestBody: body,
        responses: ok,
        parameters: [...writeParams, query('force')],
      },
      delete: { ...action('delete'), responses: ok, parameters: [query('dryRun')] },
    },
  };
  if (type.subresources.status) {
    paths[`${item}/status`] = {
      get: { ...action('get'), responses: ok },
      put: { ...action('put'), requestBody: body, responses: ok, parameters: writeParams },
      patch: { ...action('patch'), requestBody: body, responses: ok, parameters: writeParams },
    };
  }
  return paths;
}

function groupVersionPath(type: ResourceType): string {
  return type.group === '' ? `api/${type.version}` : `apis/${type.group}/${type.version}`;
}

/** `/openapi/v3`: the index of group-version documents. */
export function openApiV3Index(
  registry: ResourceRegistry,
  revision: number,
): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const type of registry.all()) {
    const path = groupVersionPath(type);
    paths[path] = { serverRelativeURL: `/openapi/v3/${path}?hash=${revision}` };
  }
  return { paths };
}

/** `/openapi/v3/api/v1`, `/openapi/v3/apis/GROUP/VERSION`, or undefined when not served. */
export function openApiV3Document(
  registry: ResourceRegistry,
  groupVersion: string,
): Record<string, unknown> | undefined {
  const types = registry.all().filter((t) => groupVersionPath(t) === groupVersion);
  if (types.length === 0) return undefined;
  const paths: Record<string, unknown> = {};
  const schemas: Record<string, unknown> = {};
  for (const type of types) {
    Object.assign(paths, pathsFor(type, `/${groupVersion}`));
    const typed = type.custom ? undefined : builtinKindSchema(apiVersionOf(type), type.kind);
    schemas[definitionName(type)] = typed === undefined ? schemaOf(type) : withGvk(type, typed);
    // The typed schemas of built-in kinds refer to their parts by $ref, as kube's do.
    const components = builtinComponents();
    for (const name of typed === undefined ? [] : referencedComponents(typed))
      schemas[name] = components[name];
  }
  return {
    openapi: '3.0.0',
    info: { title: 'Kubernetes', version: openApiInfoVersion },
    paths,
    components: { schemas },
  };
}

/** `/openapi/v2`: Swagger 2.0 definitions of every served kind. */
export function openApiV2(registry: ResourceRegistry): Record<string, unknown> {
  const definitions: Record<string, unknown> = {};
  for (const type of registry.all()) definitions[definitionName(type)] = schemaOf(type);
  return {
    swagger: '2.0',
    info: { title: 'Kubernetes', version: openApiInfoVersion },
    paths: {},
    definitions,
  };
}

export { apiVersionOf };
