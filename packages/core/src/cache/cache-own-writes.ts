import type { KubernetesObject } from '@ops/api';
import type { OwnWrite } from './cache-reader.js';
import type { InformerReader } from './informer-reader.js';
import { objectKey } from './informer-store.js';
import type { OwnWrites } from './own-writes.js';

/** The informer of whole objects a read of the kind in `namespace` uses, if any. */
export type CoveringInformer = (
  apiVersion: string,
  kind: string,
  namespace: string,
) => InformerReader | undefined;

const kindKeyOf = (apiVersion: string, kind: string) => `${apiVersion}\n${kind}`;
const keyOf = (namespace: string, name: string) => (namespace ? `${namespace}/${name}` : name);

/**
 * The read-your-writes side of {@link InformerCache}: its writes, by apiVersion and kind, over
 * {@link OwnWrites} and the informers that would serve the reads (see the cache's methods of
 * the same names for the contracts).
 */
export class CacheOwnWrites {
  constructor(
    private readonly writes: OwnWrites,
    private readonly covering: CoveringInformer,
  ) {}

  recordWrite(write: OwnWrite): void {
    if (!write.resourceVersion) return;
    const informer = this.covering(write.apiVersion, write.kind, write.namespace);
    if (informer === undefined) return;
    this.writes.record(
      kindKeyOf(write.apiVersion, write.kind),
      keyOf(write.namespace, write.name),
      write.resourceVersion,
      write.deleted,
      write.writer,
      informer.get(write.namespace, write.name),
    );
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
  ): Promise<boolean> {
    const kindKey = kindKeyOf(apiVersion, kind);
    if (!this.writes.hasPending(kindKey)) return Promise.resolve(true);
    const lookup = (key: string) => {
      const slash = key.indexOf('/');
      const ns = slash < 0 ? '' : key.slice(0, slash);
      return this.covering(apiVersion, kind, ns)?.getByKey(key);
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
