import http from 'node:http';
import https from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';

/** A JSON response from the API server. */
export interface KubeResponse {
  status: number;
  body: unknown;
  /** Response headers, lower-case names. */
  headers: Record<string, string | string[] | undefined>;
}

/** Extra request settings. */
export interface KubeRequestOptions {
  /** Content-Type of the body (default `application/json`). */
  contentType?: string;
  /** Accept header (default `application/json`). */
  accept?: string;
}

/**
 * Sends one JSON request to the cluster of `kubeConfig`'s current context, authenticated
 * as its current user (tokens, client certificates and CA as client-node applies them).
 * Resolves with any HTTP status; rejects only when the server cannot be reached.
 */
export async function kubeRequest(
  kubeConfig: KubeConfig,
  method: string,
  path: string,
  body?: unknown,
  requestOptions: KubeRequestOptions = {},
): Promise<KubeResponse> {
  const contentType = requestOptions.contentType ?? 'application/json';
  const cluster = kubeConfig.getCurrentCluster();
  if (cluster === null)
    throw new Error('the kubeconfig has no current cluster; set current-context');
  const url = new URL(path, cluster.server);
  const options: https.RequestOptions = {
    method,
    headers: { Accept: requestOptions.accept ?? 'application/json' },
  };
  await kubeConfig.applyToHTTPSOptions(options);
  const payload =
    body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
  if (payload !== undefined) {
    options.headers = {
      ...options.headers,
      'Content-Type': contentType,
      'Content-Length': String(Buffer.byteLength(payload)),
    };
  }
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = transport.request(url, options, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          // not JSON: keep the text
        }
        resolve({ status: response.statusCode ?? 0, body: parsed, headers: response.headers });
      });
    });
    request.on('error', reject);
    request.end(payload);
  });
}
