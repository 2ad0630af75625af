import type { KubernetesObject } from '@ops/api';
import type { OwnWrite } from './cache-reader.js';
import type { InformerReader } from './informer-reader.js';
import { objectKey } from './informer-store.js';
import type { OwnWrites } from './own-writes.js';

/**
 * The informer a read of the kind in `namespace` uses, if any: of whole objects, or its
 * metadata-only one (`metadataOnly`).
 */
export type CoveringInformer = (
  apiVersion: string,
  kind: string,
  namespace: string,
  metadataOnly: boolean,
) => InformerReader | undefined;

/** The key of a kind's informers: whole objects, or (`metadataOnly`) its metadata-only ones. */
export function kindKeyOf(apiVersion: string, kind: string, metadataOnly = false): string {
  return metadataOnly ? `${apiVersion}\n${kind}\nmetadata` : `${apiVersion}\n${kind}`;
}
const keyOf = (namespace: string, name: string) => (namespace ? `${namespace}/${name}` : name);

/**
 * The read-your-writes side of {@link InformerCache}: its writes, by apiVersion and kind, over
 * {@link OwnWrites} and the informers that would serve the reads (see the cache's methods of
 * the same names for the contracts). A write is recorded for the kind's informer of whole
 * objects and for its metadata-only one, each that covers the object's namespace, and each
 * shows it on its own; events are told to be a writer's own by the informer of whole objects.
 */
export class CacheOwnWrites {
  constructor(
    private readonly writes: OwnWrites,
    private readonly covering: CoveringInformer,
  ) {}

  recordWrite(write: OwnWrite): void {
    if (!write.resourceVersion) return;
    for (const metadataOnly of [false, true]) {
      const informer = this.covering(write.apiVersion, write.kind, write.namespace, metadataOnly);
      if (informer === undefined) continue;
      this.writes.record(
        kindKeyOf(write.apiVersion, write.kind, metadataOnly),
        keyOf(write.namespace, write.name),
        write.resourceVersion,
        write.deleted,
        write.writer,
        informer.get(write.namespace, write.name),
      );
    }
  }

  beginWrite(
    write: Pick<OwnWrite, 'apiVersion' | 'kind' | 'namespace' | 'name'> & { writer: string },
  ): (resourceVersion?: string) => void {
    return this.writes.begin(
      kindKeyOf(write.apiVersion, write.kind),
      keyOf(write.namespace, write.name),
      write.writer,
    );
  }

  ownWriteInFlight(
    writer: string,
    apiVersion: string,
    kind: string,
    object: KubernetesObject,
  ): Promise<boolean> | undefined {
    const answers = this.writes.answerOfSentWrites(
      writer,
      kindKeyOf(apiVersion, kind),
      objectKey(object),
    );
    const version = object.metadata?.resourceVersion;
    return answers?.then((versions) => version !== undefined && versions.includes(version));
  }

  awaitOwnWrites(
    apiVersion: string,
    kind: string,
    namespace: string | undefined,
    name?: string,
    metadataOnly = false,
  ): Promise<boolean> {
    const kindKey = kindKeyOf(apiVersion, kind, metadataOnly);
    if (!this.writes.hasPending(kindKey)) return Promise.resolve(true);
    const lookup = (key: string) => {
      const slash = key.indexOf('/');
      const ns = slash < 0 ? '' : key.slice(0, slash);
      return this.covering(apiVersion, kind, ns, metadataOnly)?.getByKey(key);
    };
    const keys =
      name !== undefined
        ? { objectKey: keyOf(namespace ?? '', name) }
        : { prefix: namespace ? `${namespace}/` : '' };
    return this.writes.awaitSeen(kindKey, keys, lookup);
  }

  isOwnWriteEvent(
    writer: string,
    apiVersion: string,
    kind: string,
    object: KubernetesObject,
  ): boolean {
    return this.writes.isOwnEvent(writer, kindKeyOf(apiVersion, kind), objectKey(object), object);
  }
}
