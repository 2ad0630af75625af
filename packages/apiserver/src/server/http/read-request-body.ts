import type { IncomingMessage } from 'node:http';
import YAML from 'yaml';
import { StatusError } from '../../api/status-error.js';
import { maxNestingDepth, nestingDepth, nestingDepthMessage } from '../../limits/nesting-depth.js';
import { decodeKubernetesProtobuf, isProtobufContentType } from '../../protobuf/index.js';

/**
 * The body of a request, decoded as kube-apiserver decodes it: JSON (or `+json`), YAML
 * (`application/yaml`, server-side apply's `application/apply-patch+yaml`), or Kubernetes
 * protobuf (what client-go's typed clients send) except for patches. An empty body is
 * undefined when `optional`, else a 400; a body over `maxBodyBytes` is a 413 (kube's
 * `Request entity too large: limit is N`), one nesting deeper than `maxNestingDepth` a 400,
 * an unsupported content type a 415, and text that does not parse a 400 saying why.
 */
export async function readRequestBody(
  maxBodyBytes: number,
  req: IncomingMessage,
  patch = false,
  optional = false,
): Promise<unknown> {
  // kube-apiserver's words (k8s.io/apiserver/pkg/endpoints/handlers/rest.go limitedReadBody).
  const tooLarge = () =>
    new StatusError(
      413,
      'RequestEntityTooLarge',
      `Request entity too large: limit is ${maxBodyBytes}`,
    );
  if (Number(req.headers['content-length'] ?? 0) > maxBodyBytes) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBodyBytes) throw tooLarge();
    chunks.push(chunk as Buffer);
  }
  const buffer = Buffer.concat(chunks);
  if (!patch && isProtobufContentType(req.headers['content-type'] ?? '') && buffer.length > 0) {
    // client-go >= 1.32 typed clients (kubectl create, auth can-i...) send protobuf.
    return checkDepth(decodeKubernetesProtobuf(buffer));
  }
  const text = buffer.toString('utf8');
  if (text.trim() === '') {
    if (optional) return undefined;
    throw StatusError.badRequest('the request body is empty; send the object as JSON');
  }
  const contentType =
    (req.headers['content-type'] ?? 'application/json').split(';')[0]?.trim() ?? '';
  try {
    if (contentType === 'application/yaml' || contentType === 'application/apply-patch+yaml')
      return checkDepth(YAML.parse(text));
    if (
      !patch &&
      contentType !== 'application/json' &&
      contentType !== '' &&
      !contentType.endsWith('+json')
    ) {
      throw StatusError.unsupportedMediaType(contentType);
    }
    return checkDepth(JSON.parse(text));
  } catch (error) {
    if (StatusError.isInstance(error)) throw error;
    throw StatusError.badRequest(
      `the request body is not valid ${contentType.includes('yaml') ? 'YAML' : 'JSON'}: ${(error as Error).message}`,
    );
  }
}

/** The body, unless it nests deeper than {@link maxNestingDepth} (400, as kube's decoder). */
function checkDepth(body: unknown): unknown {
  if (nestingDepth(body, maxNestingDepth) > maxNestingDepth)
    throw StatusError.badRequest(nestingDepthMessage('the request body'));
  return body;
}
