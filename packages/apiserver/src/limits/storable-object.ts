import type { KubernetesObject } from '@ops/api';
import { StatusError } from '../api/status-error.js';
import { maxNestingDepth, nestingDepth, nestingDepthMessage } from './nesting-depth.js';

/**
 * The largest object this server stores, encoded: 1.5 MiB, etcd's default
 * `--max-request-bytes` (1,572,864), which is what refuses oversized objects behind a
 * kube-apiserver.
 */
export const maxObjectBytes = 1.5 * 1024 * 1024;

/**
 * Checks, just before an object is committed (or a dry run answered), that the server can
 * serve it afterwards: it nests at most {@link maxNestingDepth} levels (a patch can deepen an
 * object whose request body was shallow) and encodes to at most {@link maxObjectBytes}.
 *
 * kube-apiserver passes an oversized object on to etcd, which refuses it and the client gets a
 * 500 `etcdserver: request is too large`; this server refuses it before storing with a 413
 * `RequestEntityTooLarge` that says the size and the limit.
 *
 * @throws {StatusError} 400 when too deep, 413 when too large.
 */
export function checkStorable(object: KubernetesObject, limitBytes = maxObjectBytes): void {
  if (nestingDepth(object, maxNestingDepth) > maxNestingDepth)
    throw StatusError.badRequest(nestingDepthMessage('the object'));
  const bytes = Buffer.byteLength(JSON.stringify(object));
  if (bytes > limitBytes)
    throw new StatusError(
      413,
      'RequestEntityTooLarge',
      `etcdserver: request is too large: the object is ${bytes} bytes encoded, over the ${limitBytes} bytes etcd stores per object; store large data elsewhere and reference it`,
    );
}
