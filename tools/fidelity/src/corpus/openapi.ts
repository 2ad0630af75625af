import type { FidelityScenario } from '../scenario.js';
import { useWidgets, widgetGroup } from './widget-crd.js';

type Json = Record<string, unknown> | undefined;

const sortedKeys = (value: unknown) =>
  value !== null && typeof value === 'object' ? Object.keys(value).sort() : null;

/** A few facts of one schema: its properties, required fields and group-version-kind. */
function schemaFacts(schema: Json) {
  if (schema === undefined) return null;
  return {
    properties: sortedKeys(schema.properties),
    required: Array.isArray(schema.required) ? [...schema.required].sort() : null,
    gvk: schema['x-kubernetes-group-version-kind'] ?? null,
  };
}

const widgetName = `${widgetGroup.split('.').reverse().join('.')}.v1.Widget`;

/** OpenAPI v2 and v3: present, and a few schema facts of a built-in kind and of the CRD. */
export const openapi: FidelityScenario = {
  name: 'openapi/schemas',
  description:
    'OpenAPI v2 and v3: version, ConfigMap, Deployment and Widget schema facts, the v3 index',
  async run(session) {
    await useWidgets(session);
    await session.send(
      '/openapi/v2',
      { method: 'GET', path: '/openapi/v2' },
      {
        select: (body) => {
          const definitions =
            (body as { definitions?: Record<string, Json> } | null)?.definitions ?? {};
          return {
            swagger: (body as Json)?.swagger ?? null,
            configMap: schemaFacts(definitions['io.k8s.api.core.v1.ConfigMap']),
            deploymentSpec: schemaFacts(definitions['io.k8s.api.apps.v1.DeploymentSpec']),
            widget: schemaFacts(definitions[widgetName]),
          };
        },
      },
    );
    await session.send(
      '/openapi/v3',
      { method: 'GET', path: '/openapi/v3' },
      {
        select: (body) => {
          const paths = (body as { paths?: Record<string, Json> } | null)?.paths ?? {};
          return Object.fromEntries(
            ['api/v1', 'apis/apps/v1', `apis/${widgetGroup}/v1`].map((path) => [
              path,
              typeof paths[path]?.serverRelativeURL === 'string',
            ]),
          );
        },
      },
    );
    const components = (body: unknown) =>
      (body as { components?: { schemas?: Record<string, Json> } } | null)?.components?.schemas ??
      {};
    await session.send(
      '/openapi/v3/api/v1',
      { method: 'GET', path: '/openapi/v3/api/v1' },
      {
        select: (body) => ({
          openapi: (body as Json)?.openapi ?? null,
          configMap: schemaFacts(components(body)['io.k8s.api.core.v1.ConfigMap']),
          pod: schemaFacts(components(body)['io.k8s.api.core.v1.Pod']),
        }),
      },
    );
    await session.send(
      `/openapi/v3/apis/${widgetGroup}/v1`,
      { method: 'GET', path: `/openapi/v3/apis/${widgetGroup}/v1` },
      {
        select: (body) => {
          const schema = components(body)[widgetName];
          const spec = (schema?.properties as Record<string, Json> | undefined)?.spec;
          return {
            widget: schemaFacts(schema),
            spec: schemaFacts(spec),
            colorDefault:
              (spec?.properties as Record<string, Json> | undefined)?.color?.default ?? null,
          };
        },
      },
    );
  },
};
