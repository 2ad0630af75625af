import type { ClientRequest, IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { isJsonObject } from '@ops/api';
import type { ObjectStore } from '../store/object-store.js';
import type { WebhookAgentLease, WebhookAgents } from './webhook-agents.js';
import { WebhookCallError } from './webhook-call-error.js';
import type { Webhook } from './webhook-configuration.js';

/** Where a webhook call goes. */
export interface WebhookTarget {
  /** The URL kube-apiserver names in errors, with the `?timeout=` it adds: `https://svc.ns.svc:443/path?timeout=10s`. */
  url: string;
  /** The host name the serving certificate must be valid for: `<svc>.<ns>.svc`, or the URL's host. */
  serverName: string;
  /** For `url` configs, the address to connect to; service configs resolve it at call time. */
  host?: string;
  port?: number;
  /** Path and query of the request. */
  path: string;
}

/** Options of one {@link callWebhook}. */
export interface CallOptions {
  webhook: Webhook;
  /** The AdmissionReview to post, as JSON. */
  body: string;
  /** Where Services and Endpoints are read from for `service` configs. */
  store: ObjectStore;
  /**
   * PEM CA certificates to verify the webhook with instead of its `caBundle` (fault
   * injection: a different CA makes verification fail).
   */
  caOverride?: string;
  /**
   * Where kept-alive connections come from (see {@link WebhookAgents}). Absent: a new
   * connection for this call alone.
   */
  agents?: WebhookAgents;
}

const callFailed = (webhook: Webhook, reason: string) => new WebhookCallError(webhook.name, reason);

/**
 * Where a webhook is called, as kube-apiserver builds the URL: `clientConfig.url`, or
 * `https://<name>.<namespace>.svc:<port><path>` for a service, with `?timeout=<n>s`.
 *
 * @throws {WebhookCallError} `could not get REST client: ...` for a URL that does not parse
 *   or is not https, or a config with neither url nor service.
 */
export function webhookTarget(webhook: Webhook): WebhookTarget {
  const { clientConfig } = webhook;
  const timeout = `timeout=${webhook.timeoutSeconds}s`;
  if (clientConfig.url !== undefined) {
    let parsed: URL;
    try {
      parsed = new URL(clientConfig.url);
    } catch {
      throw callFailed(
        webhook,
        `could not get REST client: parse ${JSON.stringify(clientConfig.url)}: invalid URL`,
      );
    }
    if (parsed.protocol !== 'https:') {
      throw callFailed(
        webhook,
        `could not get REST client: webhook URL scheme must be https, got ${JSON.stringify(parsed.protocol.replace(/:$/, ''))}`,
      );
    }
    const path = `${parsed.pathname || '/'}${parsed.search ? `${parsed.search}&` : '?'}${timeout}`;
    const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
    return {
      url: `https://${parsed.host}${path}`,
      serverName: host,
      host,
      port: parsed.port === '' ? 443 : Number(parsed.port),
      path,
    };
  }
  const service = clientConfig.service;
  if (service === undefined) {
    throw callFailed(
      webhook,
      'could not get REST client: webhook clientConfig has neither url nor service',
    );
  }
  const serverName = `${service.name}.${service.namespace}.svc`;
  const path = `${service.path || '/'}?${timeout}`;
  return { url: `https://${serverName}:${service.port}${path}`, serverName, path };
}

/**
 * The address behind a service config, as kube-apiserver's endpoint routing resolves it: the
 * Service's port numbered `port`, then in the Service's Endpoints (same name) the first
 * subset with a ready address and a port of that port's name (or, failing that, of its
 * targetPort or number): that subset's first ready address.
 *
 * @throws {Error} worded as kube-apiserver's resolver (`service "x" not found`,
 *   `no service port 443 found for service "x"`, `no endpoints available for service "x"`).
 */
export function resolveService(
  store: ObjectStore,
  service: { namespace: string; name: string; port: number },
): { host: string; port: number } {
  const key = `${service.namespace}/${service.name}`;
  const svc = store.get('/services', key)?.object;
  if (svc === undefined) throw new Error(`service ${JSON.stringify(service.name)} not found`);
  const spec = isJsonObject(svc.spec) ? svc.spec : {};
  const type = typeof spec.type === 'string' ? spec.type : 'ClusterIP';
  if (!['ClusterIP', 'LoadBalancer', 'NodePort'].includes(type)) {
    throw new Error(`unsupported service type ${JSON.stringify(type)}`);
  }
  const ports = Array.isArray(spec.ports) ? spec.ports.filter(isJsonObject) : [];
  const servicePort = ports.find((port) => port.port === service.port);
  if (servicePort === undefined) {
    throw new Error(
      `no service port ${service.port} found for service ${JSON.stringify(service.name)}`,
    );
  }
  const endpoints = store.get('/endpoints', key)?.object;
  if (endpoints === undefined)
    throw new Error(`endpoints ${JSON.stringify(service.name)} not found`);
  const portName = typeof servicePort.name === 'string' ? servicePort.name : '';
  const targetPort = servicePort.targetPort ?? servicePort.port;
  const subsets = Array.isArray(endpoints.subsets) ? endpoints.subsets.filter(isJsonObject) : [];
  for (const subset of subsets) {
    const addresses = Array.isArray(subset.addresses) ? subset.addresses.filter(isJsonObject) : [];
    const address = addresses.find((candidate) => typeof candidate.ip === 'string');
    if (address === undefined) continue;
    const subsetPorts = Array.isArray(subset.ports) ? subset.ports.filter(isJsonObject) : [];
    const port =
      subsetPorts.find(
        (candidate) => (typeof candidate.name === 'string' ? candidate.name : '') === portName,
      ) ??
      subsetPorts.find(
        (candidate) => candidate.port === targetPort || candidate.name === targetPort,
      );
    if (port === undefined || typeof port.port !== 'number') continue;
    return { host: String(address.ip), port: port.port };
  }
  throw new Error(`no endpoints available for service ${JSON.stringify(service.name)}`);
}

const unknownAuthority = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_SIGNATURE_FAILURE',
  'CERT_UNTRUSTED',
]);

interface NodeError extends Error {
  code?: string;
  address?: string;
  port?: number;
  hostname?: string;
  cert?: { subjectaltname?: string };
}

/** A transport error as Go's HTTP client words it (the text after `Post "<url>": `). */
export function goTransportError(error: NodeError, serverName: string): string {
  const code = error.code ?? '';
  const at = error.address !== undefined ? `${error.address}:${error.port ?? ''}` : '';
  if (code === 'ECONNREFUSED') return `dial tcp ${at}: connect: connection refused`;
  if (code === 'EHOSTUNREACH') return `dial tcp ${at}: connect: no route to host`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return `dial tcp: lookup ${error.hostname ?? serverName}: no such host`;
  }
  if (code === 'ECONNRESET') return 'read: connection reset by peer';
  if (unknownAuthority.has(code)) {
    return 'tls: failed to verify certificate: x509: certificate signed by unknown authority';
  }
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID') {
    return 'tls: failed to verify certificate: x509: certificate has expired or is not yet valid';
  }
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    const names = (error.cert?.subjectaltname ?? '')
      .split(',')
      .map((entry) => entry.trim().replace(/^(DNS|IP Address):/, ''))
      .filter((entry) => entry !== '');
    return names.length === 0
      ? `tls: failed to verify certificate: x509: certificate is not valid for any names, but wanted to match ${serverName}`
      : `tls: failed to verify certificate: x509: certificate is valid for ${names.join(', ')}, not ${serverName}`;
  }
  if (error.message === 'socket hang up') return 'EOF';
  return error.message;
}

/** client-go's message for a non-2xx answer that is not a Status (`NewGenericServerResponse`). */
function genericServerResponse(code: number, serverMessage: string): string {
  switch (code) {
    case 400:
      return 'the server rejected our request for an unknown reason';
    case 401:
      return 'the server has asked for the client to provide credentials';
    case 403:
    case 415:
      return serverMessage;
    case 404:
      return 'the server could not find the requested resource';
    case 405:
      return 'the server does not allow this method on the requested resource';
    case 406:
      return serverMessage === '' || serverMessage === 'unknown'
        ? 'the server was unable to respond with a content type that the client supports'
        : serverMessage;
    case 409:
      return 'the server reported a conflict';
    case 422:
      return 'the server rejected our request due to an error in our request';
    case 429:
      return 'the server has received too many requests and has asked us to try again later';
    case 503:
      return 'the server is currently unable to handle the request';
    case 504:
      return 'the server was unable to return a response in the time allotted, but may still be processing the request';
    default:
      return code >= 500
        ? `an error on the server (${JSON.stringify(serverMessage)}) has prevented the request from succeeding`
        : `the server responded with the status code ${code} but did not return more information`;
  }
}

/** The error client-go makes of a non-2xx answer: its Status's message, or a generic one. */
function errorResponse(response: IncomingMessage, text: string): string {
  try {
    const status: unknown = JSON.parse(text);
    if (isJsonObject(status) && typeof status.status === 'string' && status.status !== '') {
      return typeof status.message === 'string' ? status.message : '';
    }
  } catch {
    // not JSON: a generic message below
  }
  const code = response.statusCode ?? 0;
  const textual = (response.headers['content-type'] ?? '').startsWith('text/');
  return genericServerResponse(code, textual ? text.trim() : 'unknown');
}

/**
 * Posts an AdmissionReview to a webhook over HTTPS and returns the decoded answer. The
 * serving certificate is verified against `caBundle` (or the system roots without one) for
 * `<svc>.<ns>.svc` or the URL's host; the whole call, service resolution included, is
 * bounded by `timeoutSeconds`. Any 2xx answer is decoded as JSON, as client-go does. With
 * `agents` the call reuses a kept-alive connection to the webhook (and, when the webhook had
 * closed that idle connection, tries once more on a new one); without, it opens its own.
 *
 * @throws {WebhookCallError} with kube-apiserver's reason: `failed to call webhook: Post
 *   "<url>": <transport error>` (connection refused, TLS verification, `context deadline
 *   exceeded`, service resolution), `failed to call webhook: <message>` for a non-2xx answer
 *   or a body that is not JSON, `could not get REST client: ...` for a bad URL or caBundle.
 */
export async function callWebhook(options: CallOptions): Promise<unknown> {
  const { webhook } = options;
  const target = webhookTarget(webhook);
  let ca: string | undefined = options.caOverride;
  if (ca === undefined && webhook.clientConfig.caBundle !== undefined) {
    ca = Buffer.from(webhook.clientConfig.caBundle, 'base64').toString('utf8');
    if (!ca.includes('-----BEGIN CERTIFICATE-----')) {
      throw callFailed(
        webhook,
        'could not get REST client: unable to load root certificates: unable to parse bytes as PEM block',
      );
    }
  }
  const transportFailure = (reason: string) =>
    callFailed(webhook, `failed to call webhook: Post ${JSON.stringify(target.url)}: ${reason}`);
  let host = target.host;
  let port = target.port;
  const service = webhook.clientConfig.service;
  if (host === undefined || port === undefined) {
    if (service === undefined) throw transportFailure('no address to call');
    try {
      ({ host, port } = resolveService(options.store, service));
    } catch (error) {
      throw transportFailure(error instanceof Error ? error.message : String(error));
    }
  }
  const connectHost = host;
  const connectPort = port;
  let lease: WebhookAgentLease | undefined;
  try {
    lease = options.agents?.lease(agentTarget(webhook), ca);
  } catch (error) {
    throw transportFailure(error instanceof Error ? error.message : String(error));
  }
  const agent = lease?.agent ?? false;
  return new Promise<unknown>((resolve, reject) => {
    let settled = false;
    let request: ClientRequest | undefined;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      lease?.release();
      outcome();
    };
    const timer = setTimeout(() => {
      finish(() => reject(transportFailure('context deadline exceeded')));
      request?.destroy();
    }, webhook.timeoutSeconds * 1000);
    const post = (retry: boolean) => {
      const sent = https.request({
        host: connectHost,
        port: connectPort,
        path: target.path,
        method: 'POST',
        ...(isIP(target.serverName) ? {} : { servername: target.serverName }),
        ...(ca !== undefined ? { ca } : {}),
        rejectUnauthorized: true,
        agent,
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, */*',
          'Content-Length': Buffer.byteLength(options.body),
          Host: target.url.slice('https://'.length).split('/')[0] ?? target.serverName,
        },
      });
      request = sent;
      sent.on('error', (error: NodeError) => {
        // A kept-alive connection the webhook closed while it idled: once more on a new one,
        // as Go's transport retries a request that a reused connection lost before any answer.
        if (retry && !settled && sent.reusedSocket && closedWhileIdle(error)) {
          post(lease !== undefined);
          return;
        }
        finish(() => reject(transportFailure(goTransportError(error, target.serverName))));
      });
      sent.on('response', (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', (error: NodeError) => {
          finish(() => reject(transportFailure(goTransportError(error, target.serverName))));
        });
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          finish(() => {
            try {
              resolve(decodeAnswer(webhook, response, text));
            } catch (error) {
              reject(error);
            }
          });
        });
      });
      sent.end(options.body);
    };
    post(lease !== undefined);
  });
}

/**
 * The JSON of a 2xx answer.
 *
 * @throws {WebhookCallError} for another status, or a body that is not JSON.
 */
function decodeAnswer(webhook: Webhook, response: IncomingMessage, text: string): unknown {
  const code = response.statusCode ?? 0;
  if (code < 200 || code > 206) {
    throw callFailed(webhook, `failed to call webhook: ${errorResponse(response, text)}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw callFailed(
      webhook,
      `failed to call webhook: couldn't get version/kind; json parse error: ${why}`,
    );
  }
}

/** Whether a call failed because its connection was closed before any answer came. */
function closedWhileIdle(error: NodeError): boolean {
  return error.code === 'ECONNRESET' || error.message === 'socket hang up';
}

/** What one agent serves: the config's URL, or its service's namespace, name and port. */
function agentTarget(webhook: Webhook): string {
  const { url, service } = webhook.clientConfig;
  if (url !== undefined) return `url ${url}`;
  return `service ${service?.namespace ?? ''}/${service?.name ?? ''}:${service?.port ?? ''}`;
}
