import http from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';
import { StatusError, type StatusReason } from '@ops/apiserver';

/** One request the operator sent through a {@link FaultProxy}, as the explorer sees it. */
export interface ProxiedRequest {
  method: string;
  /** The path without the query, e.g. `/api/v1/namespaces/a/configmaps/b`. */
  path: string;
  query: URLSearchParams;
  /** `get`, `list`, `watch`, `create`, `update`, `patch`, `delete` or `deletecollection`. */
  verb: string;
  /** The plural resource (`configmaps`), with `/<subresource>` when one is named (`widgets/status`). */
  resource: string;
  namespace: string;
  name: string;
  /** 1-based number of this request among every request of the run (reads included). */
  requestNumber: number;
  /** 1-based number of this write among the run's writes; undefined for reads and watches. */
  writeNumber: number | undefined;
}

/** What becomes of a request: see {@link FaultProxyHooks.decide}. */
export type ProxyDecision =
  /** Sent on, its answer returned. */
  | { action: 'forward' }
  /** Not sent: answered with this code (409 Conflict, 429 with Retry-After, 500). */
  | { action: 'reject'; code: 409 | 429 | 500; retryAfterSeconds?: number }
  /** Sent and applied, then answered 504 Timeout, as a request that timed out after the server applied it. */
  | { action: 'timeout-after-apply' }
  /** Sent and applied, then the proxy is severed ({@link FaultProxy.sever}): the operator never sees the answer. */
  | { action: 'sever-after' };

/** How a {@link FaultProxy} consults and reports to the explorer; every hook is optional. */
export interface FaultProxyHooks {
  /** Decides each request before it is sent (default: forward). */
  decide?(request: ProxiedRequest): ProxyDecision;
  /** Called once a write's answer came back from the API server, with its status. */
  afterWrite?(request: ProxiedRequest, status: number): void;
  /** Called once, when the proxy is severed. */
  onSevered?(): void;
  /**
   * The operator's leader-election Lease (`<namespace>/<name>`), when it campaigns for one:
   * the requests on it are forwarded unnumbered and never shown to {@link decide} (its
   * renewals are the election's heartbeat, not the operator's writes), and
   * {@link FaultProxy.cutElectionLease} can cut them.
   */
  electionLease?: string;
}

/** The numbers of a run, shared by the proxies of its operator's incarnations. */
export interface ProxyCounters {
  requests: number;
  writes: number;
  /**
   * The first initial state each WatchList (a watch with `sendInitialEvents=true`) received
   * in the run, by path and query (its lines up to the bookmark that ends it): what
   * {@link FaultProxy.serveStaleSyncs} serves later.
   */
  firstSyncs?: Map<string, string[]>;
}

const watchGone = `${JSON.stringify({
  type: 'ERROR',
  object: new StatusError(
    410,
    'Expired',
    'too old resource version (injected by the envtest fault proxy)',
  ).toStatus(),
})}\n`;

/** One watch stream passing through the proxy. */
interface OpenWatch {
  resource: string;
  response: http.ServerResponse;
  upstream: http.IncomingMessage;
  /** Lines held back while {@link FaultProxy.holdWatchEvents} holds. */
  held: string[];
  /** Until when this watch alone holds its lines back (a stale sync's catching up). */
  heldUntil: number;
}

/**
 * Parses an API path into what a request is about: `/api/v1/namespaces/a/configmaps/b`,
 * `/apis/g/v1/namespaces/a/widgets/w/status`, `/api/v1/namespaces` and so on.
 */
export function describeApiPath(
  method: string,
  path: string,
  query: URLSearchParams,
): Pick<ProxiedRequest, 'verb' | 'resource' | 'namespace' | 'name'> {
  const segments = path.split('/').filter((segment) => segment !== '');
  let rest = segments[0] === 'api' ? segments.slice(2) : segments.slice(3);
  let namespace = '';
  if (rest[0] === 'namespaces' && rest.length >= 3) {
    namespace = rest[1] ?? '';
    rest = rest.slice(2);
  }
  const [plural = '', name = '', subresource] = rest;
  const resource = subresource ? `${plural}/${subresource}` : plural;
  const watch = query.get('watch') === 'true' || query.get('watch') === '1';
  const verbs: Record<string, string> = {
    POST: 'create',
    PUT: 'update',
    PATCH: 'patch',
    DELETE: name ? 'delete' : 'deletecollection',
  };
  const verb = verbs[method] ?? (watch ? 'watch' : name ? 'get' : 'list');
  return { verb, resource, namespace, name };
}

/** The Status body of an injected error, worded as kube-apiserver words it. */
function statusBody(code: number, request: ProxiedRequest, retryAfterSeconds?: number): string {
  const reasons: Record<number, [StatusReason, string]> = {
    409: [
      'Conflict',
      `Operation cannot be fulfilled on ${request.resource} "${request.name}": the object has been modified; please apply your changes to the latest version and try again`,
    ],
    429: [
      'TooManyRequests',
      'the server has received too many requests and has asked us to try again later',
    ],
    500: ['InternalError', 'Internal error occurred: injected by the envtest fault proxy'],
    504: [
      'Timeout',
      'the server was unable to return a response in the time allotted, but may still be processing the request',
    ],
  };
  const [reason, message] = reasons[code] ?? [
    'InternalError',
    'injected by the envtest fault proxy',
  ];
  const details = retryAfterSeconds === undefined ? undefined : { retryAfterSeconds };
  return JSON.stringify(new StatusError(code, reason, message, details).toStatus());
}

/**
 * A fault proxy between an operator and the API server: the operator's kubeconfig
 * ({@link kubeConfig}) points at it over plain HTTP on the loopback address, and it sends
 * every request on to the API server as the identity it was started with (credentials and
 * CA of that kubeconfig, so it works on every plane). It numbers the operator's requests and
 * writes (in {@link ProxyCounters} shared across the operator's restarts, so "after the N-th
 * write" is exact), asks {@link FaultProxyHooks.decide} what to do with each, and can hold
 * back, drop or end watch streams and answer watches 410 Gone.
 *
 * One proxy serves one incarnation of the operator: {@link sever} is its crash (every
 * connection cut, nothing more reaches the API server), after which the explorer starts a
 * new proxy for the next incarnation.
 */
export class FaultProxy {
  private readonly sockets = new Set<Socket>();
  private readonly watches = new Set<OpenWatch>();
  private readonly agent: http.Agent;
  private severed = false;
  private heldUntil = 0;
  private dropEvents = 0;
  /** Resources whose next resumed watch is answered 410 Gone. */
  private readonly gone = new Set<string>();
  /** How long a stale sync's watch holds back what came after it; undefined: syncs are fresh. */
  private staleSyncHoldMs: number | undefined;
  /** The resource whose syncs are stale. */
  private staleSyncResource = '';
  /** Whether the requests on the election Lease are cut ({@link cutElectionLease}). */
  private leaseCut = false;
  /**
   * The syncs served stale once: the next sync of each is fresh, as a lagging informer's
   * relist (after the 410 a server without the stale version's history answers) catches up.
   */
  private readonly staleServed = new Set<string>();

  private constructor(
    private readonly server: http.Server,
    private readonly upstreamConfig: KubeConfig,
    private readonly upstream: URL,
    readonly counters: ProxyCounters,
    private readonly hooks: FaultProxyHooks,
  ) {
    const options = { keepAlive: true, maxSockets: 64 };
    this.agent =
      upstream.protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
  }

  /**
   * Starts a proxy to the cluster of `identity` (a kubeconfig with a current cluster and
   * user), listening on a free loopback port.
   *
   * @throws {Error} when `identity` has no current cluster.
   */
  static async start(
    identity: KubeConfig,
    counters: ProxyCounters = { requests: 0, writes: 0 },
    hooks: FaultProxyHooks = {},
  ): Promise<FaultProxy> {
    const cluster = identity.getCurrentCluster();
    if (cluster === null)
      throw new Error(
        'FaultProxy.start: the identity kubeconfig has no current cluster; pass the kubeconfig the operator would use (with current-context set)',
      );
    const server = http.createServer();
    const proxy = new FaultProxy(server, identity, new URL(cluster.server), counters, hooks);
    server.on('connection', (socket) => {
      if (proxy.severed) {
        socket.destroy();
        return;
      }
      proxy.sockets.add(socket);
      socket.on('close', () => proxy.sockets.delete(socket));
    });
    server.on('request', (req, res) => {
      proxy.handle(req, res).catch(() => {
        if (!res.headersSent && !res.destroyed) {
          res.writeHead(502);
          res.end();
        } else res.destroy();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  /** The proxy's URL, `http://127.0.0.1:<port>`. */
  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Whether {@link sever} was called. */
  get isSevered(): boolean {
    return this.severed;
  }

  /**
   * A kubeconfig for the operator: this proxy's URL, and a placeholder token (the proxy
   * sends requests on with the identity's own credentials).
   */
  kubeConfig(): KubeConfig {
    const config = new KubeConfig();
    config.loadFromClusterAndUser(
      // Plain HTTP on loopback: there is no TLS to verify (client-node refuses an http:// server otherwise).
      { name: 'envtest-fault-proxy', server: this.url, skipTLSVerify: true },
      { name: 'operator', token: 'envtest-fault-proxy' },
    );
    return config;
  }

  /**
   * Holds back every watch event (and bookmark) of the open and next watches for `ms`
   * milliseconds, then delivers them in order: the operator's cache lags the API server, as
   * an informer behind a slow watch does.
   */
  holdWatchEvents(ms: number): void {
    this.heldUntil = Math.max(this.heldUntil, Date.now() + ms);
    setTimeout(() => this.flushHeld(), ms).unref();
  }

  /**
   * Loses the next `count` watch events: each is dropped, its watch ended, and the watch
   * that resumes it answered 410 Gone (as after a compaction), so the operator relists and
   * never sees the state in between.
   */
  loseWatchEvents(count: number): void {
    this.dropEvents += count;
  }

  /**
   * Serves the WatchLists of `resource` (a plural, `widgets`) stale, as an API server
   * replica (or watch cache) lagging behind on that resource would: the initial state the run's first WatchList of the same resource received (which
   * may predate objects that exist now), then a watch from that state's resourceVersion,
   * whose events (what changed since) are held back for `holdMs`. The operator's cache
   * syncs, its controllers start, and for `holdMs` they see the old state. Each sync is
   * served stale once; a relist after it is fresh.
   */
  serveStaleSyncs(resource: string, holdMs: number): void {
    this.staleSyncResource = resource;
    this.staleSyncHoldMs = holdMs;
  }

  /**
   * Cuts the operator's requests on its election Lease from now on (each connection reset
   * before it reaches the API server), while every other request still passes: its renewals
   * fail, so it loses leadership while it can still write (a partition from the Lease, or
   * an API server too slow to answer them in time).
   */
  cutElectionLease(): void {
    this.leaseCut = true;
  }

  /** Cuts every open watch mid-stream, as a dropped connection would; the operator resumes them. */
  dropWatches(): void {
    for (const watch of [...this.watches]) watch.response.destroy();
  }

  /** Ends every open watch and answers each resource's next resumed watch 410 Gone (compaction). */
  expireWatches(): void {
    for (const watch of [...this.watches]) {
      this.gone.add(watch.resource);
      watch.response.end();
    }
  }

  /**
   * The operator's crash: every connection is cut and nothing more reaches the API server
   * (new connections are closed at once). Resolves once the listener has closed.
   */
  async sever(): Promise<void> {
    if (!this.severed) {
      this.severed = true;
      this.hooks.onSevered?.();
    }
    for (const watch of [...this.watches]) watch.upstream.destroy();
    for (const socket of this.sockets) socket.destroy();
    this.agent.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /**
   * Delivers the lines of every watch whose hold has ended; comes back for the others (a
   * timer may fire a little early: a hold must never become a loss).
   */
  private flushHeld(): void {
    let later = 0;
    for (const watch of [...this.watches]) {
      const until = Math.max(this.heldUntil, watch.heldUntil);
      if (Date.now() < until) {
        later = Math.max(later, until);
        continue;
      }
      for (const line of watch.held.splice(0)) this.deliver(watch, line);
    }
    if (later > 0) setTimeout(() => this.flushHeld(), Math.max(1, later - Date.now())).unref();
  }

  private deliver(watch: OpenWatch, line: string): void {
    if (this.dropEvents > 0 && /"type":"(ADDED|MODIFIED|DELETED)"/.test(line.slice(0, 40))) {
      this.dropEvents--;
      this.gone.add(watch.resource);
      watch.response.end();
      watch.upstream.destroy();
      return;
    }
    if (!watch.response.writableEnded) watch.response.write(`${line}\n`);
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    if (this.severed) {
      res.destroy();
      return;
    }
    const url = new URL(req.url ?? '/', 'http://proxy');
    const method = req.method ?? 'GET';
    const described = describeApiPath(method, url.pathname, url.searchParams);
    // The election's heartbeat: neither numbered nor decided on, only cut.
    const election = isElectionLeaseRequest(this.hooks.electionLease, described, method, url);
    const isWrite = !election && !['get', 'list', 'watch'].includes(described.verb);
    if (!election) this.counters.requests++;
    if (isWrite) this.counters.writes++;
    const request: ProxiedRequest = {
      method,
      path: url.pathname,
      query: url.searchParams,
      ...described,
      requestNumber: this.counters.requests,
      writeNumber: isWrite ? this.counters.writes : undefined,
    };
    const body = await readBody(req);
    if (election && this.leaseCut) {
      res.destroy();
      return;
    }
    const decision = (!election && this.hooks.decide?.(request)) || { action: 'forward' };
    if (decision.action === 'reject') {
      const text = statusBody(decision.code, request, decision.retryAfterSeconds);
      res.writeHead(decision.code, {
        'Content-Type': 'application/json',
        ...(decision.retryAfterSeconds === undefined
          ? {}
          : { 'Retry-After': String(decision.retryAfterSeconds) }),
      });
      res.end(text);
      return;
    }
    if (described.verb === 'watch' && this.answersGone(described.resource, url.searchParams)) {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(watchGone);
      return;
    }
    if (described.verb === 'watch') {
      await this.watch(req, url, described.resource, res);
      return;
    }
    const upstream = await this.send(req, url, body);
    const answer = await readBody(upstream);
    if (isWrite) this.hooks.afterWrite?.(request, upstream.statusCode ?? 0);
    if (decision.action === 'sever-after') {
      await this.sever();
      return;
    }
    if (this.severed) {
      res.destroy();
      return;
    }
    if (decision.action === 'timeout-after-apply') {
      res.writeHead(504, { 'Content-Type': 'application/json' });
      res.end(statusBody(504, request));
      return;
    }
    res.writeHead(upstream.statusCode ?? 502, forwardedHeaders(upstream.headers));
    res.end(answer);
  }

  /** Whether a watch of `resource` is answered 410 Gone now (once per resource). */
  private answersGone(resource: string, query: URLSearchParams): boolean {
    const resumes = (query.get('resourceVersion') ?? '') !== '' && !query.has('sendInitialEvents');
    return resumes && this.gone.delete(resource);
  }

  private send(req: http.IncomingMessage, url: URL, body: Buffer): Promise<http.IncomingMessage> {
    const target = new URL(
      `${this.upstream.pathname.replace(/\/$/, '')}${url.pathname}${url.search}`,
      this.upstream,
    );
    const headers: http.OutgoingHttpHeaders = {};
    for (const [key, value] of Object.entries(req.headers)) {
      if (['host', 'authorization', 'accept-encoding', 'connection'].includes(key)) continue;
      if (value !== undefined) headers[key] = value;
    }
    const options: https.RequestOptions = { method: req.method ?? 'GET', headers };
    return this.upstreamConfig.applyToHTTPSOptions(options).then(
      () =>
        new Promise<http.IncomingMessage>((resolve, reject) => {
          options.agent = this.agent;
          const transport = target.protocol === 'https:' ? https : http;
          const outgoing = transport.request(target, options, resolve);
          outgoing.on('error', reject);
          outgoing.end(body);
        }),
    );
  }

  /**
   * The stale initial state a WatchList of `resource` (under `key`) is served under
   * {@link serveStaleSyncs}: once per key; a later sync (a relist) is fresh, as a lagging
   * replica's would be by then (else an operator whose stale watch cannot resume, its history
   * gone after an API server restart, would relist stale forever).
   */
  private staleSyncOf(resource: string, key: string): string[] | undefined {
    if (this.staleSyncHoldMs === undefined || resource !== this.staleSyncResource) return undefined;
    if (this.staleServed.has(key)) return undefined;
    const stale = this.counters.firstSyncs?.get(key);
    if (stale !== undefined) this.staleServed.add(key);
    return stale;
  }

  /** Proxies a watch: fresh, or (for a WatchList under {@link serveStaleSyncs}) stale. */
  private async watch(
    req: http.IncomingMessage,
    url: URL,
    resource: string,
    res: http.ServerResponse,
  ): Promise<void> {
    const syncs = this.counters.firstSyncs;
    const key = `${url.pathname}?${url.searchParams.get('labelSelector') ?? ''}&${url.searchParams.get('fieldSelector') ?? ''}`;
    const isSync = url.searchParams.get('sendInitialEvents') === 'true';
    const stale = isSync ? this.staleSyncOf(resource, key) : undefined;
    if (stale === undefined) {
      const upstream = await this.send(req, url, Buffer.alloc(0));
      const recording = isSync && syncs !== undefined && !syncs.has(key) ? [] : undefined;
      this.pipeWatch(resource, upstream, res, { heldUntil: 0, recording, key });
      return;
    }
    // The lines of the first sync, then what happened since its resourceVersion, held back.
    const bookmark = JSON.parse(stale[stale.length - 1] ?? '{}') as {
      object?: { metadata?: { resourceVersion?: string } };
    };
    const since = new URL(url);
    since.searchParams.delete('sendInitialEvents');
    since.searchParams.delete('resourceVersionMatch');
    since.searchParams.set('resourceVersion', bookmark.object?.metadata?.resourceVersion ?? '0');
    const upstream = await this.send(req, since, Buffer.alloc(0));
    this.pipeWatch(resource, upstream, res, {
      heldUntil: Date.now() + (this.staleSyncHoldMs ?? 0),
      prefix: stale,
      key,
    });
    setTimeout(() => this.flushHeld(), this.staleSyncHoldMs ?? 0).unref();
  }

  private pipeWatch(
    resource: string,
    upstream: http.IncomingMessage,
    res: http.ServerResponse,
    options: {
      heldUntil: number;
      key: string;
      prefix?: string[];
      recording?: string[] | undefined;
    },
  ): void {
    const headers = forwardedHeaders(upstream.headers);
    delete headers['content-length'];
    res.writeHead(upstream.statusCode ?? 502, headers);
    // A watch's headers go out at once, as the API server sends them, not with the first event.
    res.flushHeaders();
    const watch: OpenWatch = {
      resource,
      response: res,
      upstream,
      held: [],
      heldUntil: options.heldUntil,
    };
    this.watches.add(watch);
    for (const line of options.prefix ?? []) res.write(`${line}\n`);
    const recording = options.recording;
    let partial = '';
    upstream.setEncoding('utf8');
    upstream.on('data', (chunk: string) => {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        if (line === '') continue;
        if (recording !== undefined && !this.counters.firstSyncs?.has(options.key)) {
          recording.push(line);
          if (line.includes('"type":"BOOKMARK"') && line.includes('k8s.io/initial-events-end'))
            this.counters.firstSyncs?.set(options.key, recording);
        }
        if (Date.now() < Math.max(this.heldUntil, watch.heldUntil) || watch.held.length > 0)
          watch.held.push(line);
        else this.deliver(watch, line);
      }
    });
    const finish = () => {
      this.watches.delete(watch);
      if (!res.writableEnded) res.end();
    };
    upstream.on('end', finish);
    upstream.on('error', () => {
      this.watches.delete(watch);
      res.destroy();
    });
    res.on('close', () => {
      this.watches.delete(watch);
      upstream.destroy();
    });
  }
}

/**
 * Whether a request is on the election Lease `lease` (`<namespace>/<name>`): a request on
 * `leases/<name>` in its namespace, or a create of a Lease there (the elector creates it by
 * that name).
 */
function isElectionLeaseRequest(
  lease: string | undefined,
  described: ReturnType<typeof describeApiPath>,
  method: string,
  url: URL,
): boolean {
  if (lease === undefined || described.resource !== 'leases') return false;
  const [namespace, name] = lease.split('/');
  if (described.namespace !== namespace) return false;
  return (
    described.name === name || (method === 'POST' && described.name === '' && url.search === '')
  );
}

function forwardedHeaders(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  const forwarded: http.OutgoingHttpHeaders = {};
  for (const [key, value] of Object.entries(headers)) {
    if (['connection', 'keep-alive', 'transfer-encoding'].includes(key)) continue;
    if (value !== undefined) forwarded[key] = value;
  }
  return forwarded;
}

function readBody(stream: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });
}
