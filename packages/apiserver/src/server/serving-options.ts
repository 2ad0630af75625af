import {
  defaultTooLargeResourceVersionWaitMs,
  defaultWatchBufferBytes,
  type WatchServer,
} from './handlers/watch-response.js';

/** The settings of how requests are served, with their defaults applied. */
export interface ServingOptions
  extends Pick<
    WatchServer,
    | 'bookmarkIntervalMs'
    | 'minRequestTimeoutSeconds'
    | 'watchBufferBytes'
    | 'tooLargeResourceVersionWaitMs'
  > {
  /** The largest request body accepted. */
  maxBodyBytes: number;
}

/**
 * {@link ServingOptions} from what the caller set (see `ApiServerOptions`): bookmarks every
 * 5 s, kube's 1800 s minimum request timeout, a 16 MiB watch buffer, kube's 3 s wait for a
 * too-new resourceVersion, 3 MiB bodies.
 */
export function servingOptions(options: Partial<ServingOptions>): ServingOptions {
  return {
    bookmarkIntervalMs: options.bookmarkIntervalMs ?? 5_000,
    minRequestTimeoutSeconds: options.minRequestTimeoutSeconds ?? 1800,
    watchBufferBytes: options.watchBufferBytes ?? defaultWatchBufferBytes,
    tooLargeResourceVersionWaitMs: defaultTooLargeResourceVersionWaitMs,
    maxBodyBytes: options.maxBodyBytes ?? 3 * 1024 * 1024,
  };
}
