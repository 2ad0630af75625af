const marker = Symbol.for('@ops/envtest.ControlPlaneAssetsError');

/**
 * The real control plane's binaries are not there and cannot be built: Go is missing or too
 * old, or `go build` failed. The message says what to install, or how to use binaries from
 * `setup-envtest` instead (through `KUBEBUILDER_ASSETS`). Recognise it with
 * {@link ControlPlaneAssetsError.isInstance}, which works across duplicate copies of the package.
 */
export class ControlPlaneAssetsError extends Error {
  readonly [marker] = true;
  override readonly name = 'ControlPlaneAssetsError';

  static isInstance(error: unknown): error is ControlPlaneAssetsError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
