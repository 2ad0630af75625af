/**
 * Ends a forked child process with one IPC message to its parent: `work`'s result, or
 * `{ ok: false, error }` (the stack) when it rejects; the process exits (0 or 1) once the
 * message is sent.
 */
export function replyToParent(work: Promise<object>): void {
  work.then(
    (outcome) => process.send?.(outcome, () => process.exit(0)),
    (error: unknown) =>
      process.send?.(
        {
          ok: false,
          error: error instanceof Error ? (error.stack ?? error.message) : String(error),
        },
        () => process.exit(1),
      ),
  );
}
