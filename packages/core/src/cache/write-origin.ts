import { AsyncLocalStorage } from 'node:async_hooks';

const writers = new AsyncLocalStorage<string>();

/**
 * Runs `work` as the writer `name` (a controller's name): writes the client makes from it,
 * however deep in its async calls, are recorded as that writer's own (see
 * `InformerCache.isOwnWriteEvent`). The controller runs each reconcile this way.
 */
export function runAsWriter<T>(name: string, work: () => T): T {
  return writers.run(name, work);
}

/** The writer the current async context runs as ({@link runAsWriter}), if any. */
export function currentWriter(): string | undefined {
  return writers.getStore();
}
