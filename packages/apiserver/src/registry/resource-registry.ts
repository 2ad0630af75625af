import { type CustomResourceDefinitionObject, isJsonObject } from '@ops/api';
import { builtinResources } from './builtin-resources.js';
import {
  allVerbs,
  apiVersionOf,
  type ConversionWebhook,
  type ResourceType,
} from './resource-type.js';

/**
 * The resources the server serves: the built-ins, plus the served versions of every
 * CustomResourceDefinition, added the moment the CRD is stored and removed when it goes.
 */
export class ResourceRegistry {
  private types: ResourceType[] = builtinResources();
  private readonly byCrd = new Map<string, ResourceType[]>();

  /** Every served resource version, built-ins first. */
  all(): readonly ResourceType[] {
    return this.types;
  }

  /** The resource at `group/version/plural`, if served. */
  find(group: string, version: string, plural: string): ResourceType | undefined {
    return this.types.find(
      (t) => t.group === group && t.version === version && t.plural === plural,
    );
  }

  /** The resource of a kind at an apiVersion (`apps/v1`, `Deployment`), if served. */
  findKind(apiVersion: string, kind: string): ResourceType | undefined {
    const slash = apiVersion.indexOf('/');
    const group = slash === -1 ? '' : apiVersion.slice(0, slash);
    const version = slash === -1 ? apiVersion : apiVersion.slice(slash + 1);
    return this.types.find((t) => t.group === group && t.version === version && t.kind === kind);
  }

  /** Any served version of `group/plural` (the storage version when served). */
  findAnyVersion(group: string, plural: string): ResourceType | undefined {
    const candidates = this.types.filter((t) => t.group === group && t.plural === plural);
    return candidates.find((t) => t.version === t.storageVersion) ?? candidates[0];
  }

  /** Groups in discovery order, each with its versions (preferred first). */
  groups(): Array<{ name: string; versions: string[] }> {
    const groups = new Map<string, string[]>();
    for (const type of this.types) {
      if (type.group === '') continue;
      const versions = groups.get(type.group) ?? [];
      if (!versions.includes(type.version)) versions.push(type.version);
      groups.set(type.group, versions);
    }
    return [...groups].map(([name, versions]) => ({ name, versions: sortVersions(versions) }));
  }

  /** Serves (or re-serves, on update) the versions of a CRD. */
  serveCustomResource(crd: CustomResourceDefinitionObject): ResourceType[] {
    const name = crd.metadata?.name ?? '';
    this.removeCustomResource(name);
    const { group, names, scope, versions } = crd.spec;
    const storageSpec = versions.find((v) => v.storage) ?? versions[0];
    const storage = storageSpec?.name ?? '';
    const storageSchema = storageSpec?.schema?.openAPIV3Schema;
    const conversionWebhook = conversionWebhookOf(crd);
    const served: ResourceType[] = versions
      .filter((v) => v.served)
      .map((v) => ({
        group,
        version: v.name,
        kind: names.kind,
        plural: names.plural,
        singular: names.singular || names.kind.toLowerCase(),
        listKind: names.listKind || `${names.kind}List`,
        namespaced: scope !== 'Cluster',
        shortNames: names.shortNames ?? [],
        categories: names.categories ?? [],
        verbs: allVerbs,
        subresources: {
          status: v.subresources?.status !== undefined,
          scale: v.subresources?.scale !== undefined,
        },
        ...(v.subresources?.scale ? { scalePaths: v.subresources.scale } : {}),
        selectableFields: (v.selectableFields ?? []).map((f) => f.jsonPath.replace(/^\./, '')),
        printerColumns: v.additionalPrinterColumns ?? [],
        ...(v.schema?.openAPIV3Schema ? { schema: v.schema.openAPIV3Schema } : {}),
        custom: true,
        storageVersion: storage,
        ...(storageSchema ? { storageSchema } : {}),
        ...(conversionWebhook ? { conversionWebhook } : {}),
      }));
    this.byCrd.set(name, served);
    this.types = [...this.types, ...served];
    return served;
  }

  /** Stops serving a CRD's resources. */
  removeCustomResource(crdName: string): ResourceType[] {
    const served = this.byCrd.get(crdName);
    if (served === undefined) return [];
    this.byCrd.delete(crdName);
    this.types = this.types.filter((t) => !served.includes(t));
    return served;
  }

  /** Whether a group/plural is claimed by a built-in or by a CRD other than `crdName`. */
  isTaken(group: string, plural: string, crdName: string): boolean {
    return this.types.some(
      (t) =>
        t.group === group && t.plural === plural && !(this.byCrd.get(crdName) ?? []).includes(t),
    );
  }
}

/**
 * The conversion webhook of a CRD whose `spec.conversion.strategy` is `Webhook` (undefined for
 * `None` or no conversion), read loosely: the CRD was validated when stored.
 */
function conversionWebhookOf(crd: CustomResourceDefinitionObject): ConversionWebhook | undefined {
  const conversion = (crd.spec as { conversion?: unknown }).conversion;
  if (!isJsonObject(conversion) || conversion.strategy !== 'Webhook') return undefined;
  const webhook = isJsonObject(conversion.webhook) ? conversion.webhook : {};
  const config = isJsonObject(webhook.clientConfig) ? webhook.clientConfig : {};
  const clientConfig: ConversionWebhook['clientConfig'] = {};
  if (typeof config.url === 'string') clientConfig.url = config.url;
  if (isJsonObject(config.service)) {
    const service = config.service;
    clientConfig.service = {
      namespace: typeof service.namespace === 'string' ? service.namespace : '',
      name: typeof service.name === 'string' ? service.name : '',
      port: typeof service.port === 'number' ? service.port : 443,
      ...(typeof service.path === 'string' ? { path: service.path } : {}),
    };
  }
  if (typeof config.caBundle === 'string' && config.caBundle !== '')
    clientConfig.caBundle = config.caBundle;
  const versions = Array.isArray(webhook.conversionReviewVersions)
    ? webhook.conversionReviewVersions.filter((v): v is string => typeof v === 'string')
    : [];
  return {
    crdName: crd.metadata?.name ?? '',
    clientConfig,
    conversionReviewVersions: versions,
  };
}

/** Kubernetes version priority: GA > beta > alpha, higher numbers first. */
export function sortVersions(versions: string[]): string[] {
  const rank = (v: string): [number, number, number] => {
    const match = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v);
    if (match === null) return [3, 0, 0];
    const stage = match[2] === undefined ? 0 : match[2] === 'beta' ? 1 : 2;
    return [stage, -Number(match[1]), -Number(match[3] ?? 0)];
  };
  return [...versions].sort((a, b) => {
    const [x, y] = [rank(a), rank(b)];
    return x[0] - y[0] || x[1] - y[1] || x[2] - y[2] || (a < b ? -1 : 1);
  });
}

export { apiVersionOf };
