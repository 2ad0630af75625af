const marker = Symbol.for('@ops/manifests.ManifestsError');

/**
 * Why manifests could not be generated: bad command-line arguments, a module path that
 * cannot be read or imported, a module that does not export `customResources` and `rbac` in
 * the expected shape, or an output directory that cannot be written.
 *
 * `message` says what is wrong and how to fix it (for a module: the export's name and the
 * expected shape). The CLI prints it and exits with status 2. Recognise it with
 * {@link ManifestsError.isInstance}, which works even when two copies of the package are
 * loaded.
 */
export class ManifestsError extends Error {
  readonly [marker] = true;
  override readonly name = 'ManifestsError';

  static isInstance(error: unknown): error is ManifestsError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
