/**
 * Imported first by every module of `@ops/core`'s build: refuses to load on a Node.js that
 * package.json `engines` does not accept, before a dependency fails there in some obscure
 * way. Throws an {@link UnsupportedNodeError} when evaluated on such a release, which Node.js
 * prints as `[UnsupportedNodeError: Node.js >= 22.19 is required, this is 20.20.2: ...]` and
 * exits 1; does nothing otherwise. It exists for that side effect alone, so package.json
 * `sideEffects` lists it (bundlers keep it).
 */
import { UnsupportedNodeError } from './errors/unsupported-node-error.js';
import { unsupportedNodeMessage } from './node-version.js';

const problem = unsupportedNodeMessage();
if (problem !== undefined) {
  const error = new UnsupportedNodeError(problem);
  // Without the stack's frames: the message is the whole story.
  error.stack = `${error.name}: ${problem}`;
  throw error;
}
