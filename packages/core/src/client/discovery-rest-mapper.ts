import { isJsonObject } from '@ops/api';
import { NoKindMatchError } from '../errors/no-kind-match-error.js';
import { parseApiVersion, type ResourceDescriptor } from '../kinds/resource-descriptor.js';
import type { RestMapper } from '../kinds/rest-mapper.js';
import type { KubeTransport, TransportResponse } from '../transport/kube-transport.js';
import {
  type ApiRequestContext,
  apiErrorFromFailure,
  apiErrorFromResponse,
  unexpectedResponseError,
} from './api-error-from-response.js';

interface GroupEntry {
  name: string;
  versions: string[];
  preferred: string | undefined;
}

type Fetch<T> = { promise: Promise<T>; settled: boolean };

/**
 * A {@link RestMapper} backed by the API server's discovery documents (`/api/v1`,
 * `/apis/GROUP/VERSION`, `/apis`), like controller-runtime's dynamic REST mapper.
 *
 * Contract: discovery is lazy and per group version: the first lookup in a group version
 * reads its document once, later lookups are answered from memory. A kind not found in a
 * document already in memory triggers exactly one fresh read of that document (so CRDs
 * created after the first lookup are found) before rejecting with a
 * {@link NoKindMatchError}; concurrent lookups share one read. Failed reads (network, 5xx,
 * 403) are not remembered and reject with an `ApiError`. Subresources (`pods/status`) are
 * never returned as kinds.
 */
export class DiscoveryRestMapper implements RestMapper {
  private readonly versions = new Map<string, Fetch<ResourceDescriptor[] | undefined>>();
  private groups: Fetch<Map<string, GroupEntry>> | undefined;

  constructor(private readonly transport: KubeTransport) {}

  /**
   * Where `kind` of `apiVersion` is served.
   *
   * @throws {NoKindMatchError} when the server does not serve it, even after a fresh discovery.
   * @throws {ApiError} when discovery itself fails.
   */
  async resourceFor(apiVersion: string, kind: string): Promise<ResourceDescriptor> {
    const { group, version } = parseApiVersion(apiVersion);
    const found = await this.lookup(group, version, kind);
    if (found.descriptor) return found.descriptor;
    const served = found.resources;
    const why =
      served === undefined
        ? `the API server does not serve ${apiVersion} at all`
        : `${apiVersion} serves ${served.length > 0 ? `only ${served.map((r) => r.kind).join(', ')}` : 'no kinds'}`;
    throw new NoKindMatchError(
      group,
      version,
      kind,
      `no matches for kind "${kind}" in version "${apiVersion}": ${why}; install the CustomResourceDefinition that defines it (kubectl get crd lists those installed) or correct apiVersion and kind`,
    );
  }

  /**
   * Every kind served in `apiVersion` (subresources left out), from the cached document;
   * empty when the group version is not served.
   *
   * @throws {ApiError} when discovery fails.
   */
  async resourcesFor(apiVersion: string): Promise<ResourceDescriptor[]> {
    const { group, version } = parseApiVersion(apiVersion);
    return [...((await this.groupVersion(group, version, false)) ?? [])];
  }

  /**
   * The version the server prefers for `group` (`v1` for the core group), from `/apis`; an
   * unknown group triggers one fresh read.
   *
   * @throws {NoKindMatchError} (with `kind` ``) when the group is not served.
   * @throws {ApiError} when discovery fails.
   */
  async preferredVersion(group: string): Promise<string> {
    if (group === '') return 'v1';
    const entry = await this.groupEntry(group);
    const version = entry?.preferred ?? entry?.versions[0];
    if (version === undefined) {
      throw new NoKindMatchError(
        group,
        '',
        '',
        `the API server does not serve the API group "${group}"; install the CustomResourceDefinitions of that group or correct the group name`,
      );
    }
    return version;
  }

  /**
   * Where `kind` of `group` is served when no version is given: the preferred version
   * first, then the group's other versions in the server's order.
   *
   * @throws {NoKindMatchError} when no version of the group serves the kind.
   * @throws {ApiError} when discovery fails.
   */
  async resourceForGroupKind(group: string, kind: string): Promise<ResourceDescriptor> {
    const preferred = await this.preferredVersion(group);
    const entry = group === '' ? undefined : await this.groupEntry(group);
    const candidates = [preferred, ...(entry?.versions ?? []).filter((v) => v !== preferred)];
    for (const version of candidates) {
      const found = await this.lookup(group, version, kind);
      if (found.descriptor) return found.descriptor;
    }
    throw new NoKindMatchError(
      group,
      '',
      kind,
      `no matches for kind "${kind}" in group "${group}" (versions ${candidates.join(', ')}); install the CustomResourceDefinition that defines it or correct the group and kind`,
    );
  }

  /** Forgets every discovery document read so far; the next lookups read them afresh. */
  reset(): void {
    this.versions.clear();
    this.groups = undefined;
  }

  private async lookup(
    group: string,
    version: string,
    kind: string,
  ): Promise<{ descriptor?: ResourceDescriptor; resources: ResourceDescriptor[] | undefined }> {
    const key = group ? `${group}/${version}` : version;
    const cached = this.versions.get(key);
    const wasFresh = cached === undefined || !cached.settled;
    let resources = await this.groupVersion(group, version, false);
    let descriptor = resources?.find((resource) => resource.kind === kind);
    if (descriptor === undefined && !wasFresh) {
      resources = await this.groupVersion(group, version, true);
      descriptor = resources?.find((resource) => resource.kind === kind);
    }
    return descriptor ? { descriptor, resources } : { resources };
  }

  /** The kinds of one group version; undefined when the server does not serve it (404). */
  private groupVersion(
    group: string,
    version: string,
    refresh: boolean,
  ): Promise<ResourceDescriptor[] | undefined> {
    const key = group ? `${group}/${version}` : version;
    const cached = this.versions.get(key);
    // A read in flight is as fresh as a new one: join it.
    if (cached !== undefined && (!refresh || !cached.settled)) return cached.promise;
    const path = group ? `/apis/${group}/${version}` : `/api/${version}`;
    const fetch: Fetch<ResourceDescriptor[] | undefined> = {
      settled: false,
      promise: this.get(path, 'resources').then((list) => {
        if (list === undefined) return undefined;
        const resources: ResourceDescriptor[] = [];
        for (const item of list) {
          if (
            !isJsonObject(item) ||
            typeof item.name !== 'string' ||
            typeof item.kind !== 'string'
          ) {
            continue;
          }
          if (item.name.includes('/')) continue;
          resources.push({
            group,
            version,
            kind: item.kind,
            plural: item.name,
            namespaced: item.namespaced === true,
          });
        }
        return resources;
      }),
    };
    this.remember(
      fetch,
      (f) => this.versions.set(key, f),
      () => {
        if (this.versions.get(key) === fetch) this.versions.delete(key);
      },
    );
    return fetch.promise;
  }

  private async groupEntry(group: string): Promise<GroupEntry | undefined> {
    const wasFresh = this.groups === undefined || !this.groups.settled;
    let entry = (await this.groupList(false)).get(group);
    if (entry === undefined && !wasFresh) entry = (await this.groupList(true)).get(group);
    return entry;
  }

  private groupList(refresh: boolean): Promise<Map<string, GroupEntry>> {
    const cached = this.groups;
    if (cached !== undefined && (!refresh || !cached.settled)) return cached.promise;
    const fetch: Fetch<Map<string, GroupEntry>> = {
      settled: false,
      promise: this.get('/apis', 'groups').then((list) => {
        const groups = new Map<string, GroupEntry>();
        for (const item of list ?? []) {
          if (!isJsonObject(item) || typeof item.name !== 'string') continue;
          const versions = (Array.isArray(item.versions) ? item.versions : [])
            .map((v) => (isJsonObject(v) && typeof v.version === 'string' ? v.version : undefined))
            .filter((v): v is string => v !== undefined);
          const preferred =
            isJsonObject(item.preferredVersion) && typeof item.preferredVersion.version === 'string'
              ? item.preferredVersion.version
              : undefined;
          groups.set(item.name, { name: item.name, versions, preferred });
        }
        return groups;
      }),
    };
    this.remember(
      fetch,
      (f) => {
        this.groups = f;
      },
      () => {
        if (this.groups === fetch) this.groups = undefined;
      },
    );
    return fetch.promise;
  }

  /** Stores a read, marks it settled when done, and forgets it when it fails. */
  private remember<T>(fetch: Fetch<T>, store: (f: Fetch<T>) => void, forget: () => void): void {
    store(fetch);
    fetch.promise.then(
      () => {
        fetch.settled = true;
      },
      () => {
        fetch.settled = true;
        forget();
      },
    );
  }

  /**
   * GETs a discovery document and returns its array `field` (`resources` of an
   * APIResourceList, `groups` of an APIGroupList); undefined for 404; else an ApiError.
   */
  private async get(path: string, field: 'resources' | 'groups'): Promise<unknown[] | undefined> {
    const context: ApiRequestContext = { verb: 'get', method: 'GET', path };
    let response: TransportResponse;
    try {
      response = await this.transport.request({ method: 'GET', path });
    } catch (error) {
      throw apiErrorFromFailure(error, context, this.transport.server.toString());
    }
    if (response.status === 404) return undefined;
    if (response.status < 200 || response.status >= 300) {
      throw apiErrorFromResponse(response, context);
    }
    let body: unknown;
    try {
      body = JSON.parse(response.text);
    } catch {
      body = undefined;
    }
    const list = isJsonObject(body) ? body[field] : undefined;
    if (!Array.isArray(list)) {
      const expected = field === 'resources' ? 'an APIResourceList' : 'an APIGroupList';
      throw unexpectedResponseError(response, context, `${expected} in JSON`);
    }
    return list;
  }
}
