/**
 * Where a kind lives in the API: the REST mapping of an apiVersion and kind to a resource
 * path, as discovery reports it.
 */
export interface ResourceDescriptor {
  /** `apps`, or `` for the core group. */
  group: string;
  version: string;
  kind: string;
  /** The plural resource name, the URL segment: `deployments`. */
  plural: string;
  namespaced: boolean;
}

/** `group/version`, or `version` for the core group. */
export function apiVersionOfDescriptor(
  descriptor: Pick<ResourceDescriptor, 'group' | 'version'>,
): string {
  return descriptor.group ? `${descriptor.group}/${descriptor.version}` : descriptor.version;
}

/**
 * The URL path of a resource: the collection (no name), one object, or one of its
 * subresources. `namespace` is ignored for cluster-scoped resources; an empty namespace on a
 * namespaced resource means all namespaces.
 */
export function resourcePath(
  descriptor: ResourceDescriptor,
  namespace?: string,
  name?: string,
  subresource?: string,
): string {
  const prefix = descriptor.group
    ? `/apis/${descriptor.group}/${descriptor.version}`
    : `/api/${descriptor.version}`;
  const scope =
    descriptor.namespaced && namespace ? `/namespaces/${encodeURIComponent(namespace)}` : '';
  const item = name ? `/${encodeURIComponent(name)}` : '';
  const sub = name && subresource ? `/${subresource}` : '';
  return `${prefix}${scope}/${descriptor.plural}${item}${sub}`;
}

/** `group` and `version` of an apiVersion: `apps/v1` → `apps`, `v1`; `v1` → ``, `v1`. */
export function parseApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf('/');
  if (slash < 0) return { group: '', version: apiVersion };
  return { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}
