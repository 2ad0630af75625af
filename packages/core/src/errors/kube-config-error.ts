const marker = Symbol.for('@ops/core.KubeConfigError');

/** Why no usable client configuration was found. */
export type KubeConfigErrorReason =
  /** The kubeconfig named explicitly (the `--kubeconfig` flag) does not exist or is unreadable. */
  | 'FileNotFound'
  /** A kubeconfig file exists but is not valid YAML or not a valid kubeconfig. */
  | 'InvalidConfig'
  /** No kubeconfig file was found and the process does not run in a cluster. */
  | 'NoConfiguration'
  /** The context asked for, or the current context, is missing or incomplete. */
  | 'ContextNotFound';

/**
 * The client configuration could not be loaded. `message` names every place searched and
 * how to provide a configuration; `tried` lists those places in the order they were searched.
 * Recognise it with {@link KubeConfigError.isInstance}, which works even when two copies of
 * `@ops/core` are loaded.
 */
export class KubeConfigError extends Error {
  readonly [marker] = true;
  override readonly name = 'KubeConfigError';

  constructor(
    readonly reason: KubeConfigErrorReason,
    message: string,
    /** Where configuration was looked for, in order: file paths and `in-cluster (...)`. */
    readonly tried: readonly string[],
    options?: ErrorOptions,
  ) {
    super(message, options);
  }

  static isInstance(error: unknown): error is KubeConfigError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
