const marker = Symbol.for('@ops/operator-cli.OperatorCliError');

/**
 * A failure the user can fix: a missing tool (kubectl, docker, buildx), an unreachable
 * cluster or daemon, a command that exited non-zero, bad arguments, or a directory that is
 * not an operator. `message` says what is wrong and how to fix it; the CLI prints it alone,
 * without a stack, and exits with status 1.
 *
 * Recognise it with {@link OperatorCliError.isInstance}, which works even when two copies of
 * the package are loaded.
 */
export class OperatorCliError extends Error {
  readonly [marker] = true;
  override readonly name = 'OperatorCliError';
  /** What the failed command wrote to stderr, when the error comes from one. */
  readonly stderr: string | undefined;

  constructor(message: string, options: { cause?: unknown; stderr?: string } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.stderr = options.stderr;
  }

  static isInstance(error: unknown): error is OperatorCliError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
