import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import type http from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type https from 'node:https';
import type { Socket } from 'node:net';
import type { CustomResourceDefinitionObject, KubernetesObject } from '@ops/api';
import YAML from 'yaml';
import type { Admission } from '../admission/admission.js';
import { WebhookAdmission } from '../admission/index.js';
import { StatusError } from '../api/status-error.js';
import type { AuthenticatedUser } from '../auth/index.js';
import { type ClusterOptions, SimulatedCluster } from '../cluster/index.js';
import { parseQueryOptions } from '../query/query-options.js';
import { checkPathSegmentName, parseRequestTarget } from '../query/request-target.js';
import { virtualResources } from '../registry/builtin-resources.js';
import { ResourceRegistry } from '../registry/resource-registry.js';
import { type ResourceType, storageKeyOf } from '../registry/resource-type.js';
import { ObjectStore } from '../store/object-store.js';
import { createHttpServer, type ServingCertificates } from '../tls/certificates.js';
import { reviewAccess } from './access/access-review-response.js';
import { createBootstrapObjects } from './access/bootstrap-policy.js';
import { RequestAccess } from './access/request-access.js';
import { serveTokenRequest } from './access/token-request.js';
import { type FaultRule, FaultRules } from './control/faults.js';
import { listenOn } from './control/port-in-use-error.js';
import { restartListening } from './control/restart-listening.js';
import { handleControl } from './control-api.js';
import {
  coreVersions,
  groupDocument,
  groupList,
  resourceList,
  versionInfo,
} from './discovery/discovery.js';
import { serveOpenApi } from './discovery/openapi-response.js';
import { openApiV2ProtobufEncoder } from './discovery/openapi-v2-protobuf.js';
import { type RequestContext, ResourceService } from './handlers/resource-service.js';
import { serveVerb, verbOf } from './handlers/serve-verb.js';
import { subresourceServed } from './handlers/subresource-served.js';
import { type ActiveWatch, defaultWatchBufferBytes } from './handlers/watch-response.js';
import { readRequestBody } from './http/read-request-body.js';
import { sendError, sendJson, sendText } from './http/responses.js';
import { writerOf } from './http/writer-of.js';
import { resetStore } from './reset-store.js';
import { type ServingOptions, servingOptions } from './serving-options.js';
import { tableRequestOf } from './tables/table-request.js';

type Json = Record<string, unknown>;

/** Options of {@link ApiServer.start}. */
export interface ApiServerOptions {
  /** TCP port; 0 (the default) picks a free one. */
  port?: number;
  /** Interface to listen on (default 127.0.0.1). */
  host?: string;
  /** Serve HTTPS with a generated CA (default true); false serves plain HTTP. */
  https?: boolean;
  /**
   * Enforce RBAC for every user outside `system:masters` (default false: authenticated users
   * may do anything, anonymous ones everything but Secrets, tokens, impersonation and RBAC
   * writes; see `openPolicy` and the README's "Security and limits").
   */
  rbac?: boolean;
  /** Events kept per resource for watches and paging (default 10,000). */
  historySize?: number;
  /**
   * Keep the watch history from revision 1 (still bounded by `historySize`), as a fresh,
   * never-compacted etcd would. By default (false) history starts once the server has
   * started, as kube-apiserver's watch cache over a compacted etcd: a watch or exact list
   * from an older resourceVersion, such as `1`, gets 410 `Expired`.
   */
  historyFromStart?: boolean;
  /** How often watches that asked for bookmarks get one (default 5 s). */
  bookmarkIntervalMs?: number;
  /**
   * kube-apiserver's `--min-request-timeout` (default 1800 s): a watch without
   * `timeoutSeconds` (or with 0) ends after a random time between this and twice this.
   */
  minRequestTimeoutSeconds?: number;
  /**
   * Bytes a watcher may fall behind (written, not yet read by its client) before it is
   * closed (default {@link defaultWatchBufferBytes}, 16 MiB).
   */
  watchBufferBytes?: number;
  /** Largest accepted request body (default 3 MiB). */
  maxBodyBytes?: number;
  /** The admin user's bearer token (default: random). */
  adminToken?: string;
  /** Serving certificates to use instead of generated ones (HTTPS only). */
  certificates?: ServingCertificates;
  /** The simulated cluster (controllers, scheduler, kubelet): on by default; see {@link ClusterOptions}. */
  cluster?: boolean | ClusterOptions;
  /** The clock service account tokens are issued and checked by (default: the system clock). */
  now?: () => Date;
}

/** What a request was found to be. */
interface Route {
  type: ResourceType;
  namespace: string;
  name: string;
  subresource: string;
  watchPath: boolean;
}

/**
 * The local Kubernetes API server: {@link ResourceService}'s verbs over real HTTP(S), with
 * discovery, OpenAPI (JSON and protobuf), Table output, watches, every patch type including
 * server-side apply with managed fields, admission webhooks, CRD schemas with CEL validation
 * rules, bearer-token users, optional RBAC, a simulated cluster ({@link SimulatedCluster})
 * and fault injection. Start it with {@link ApiServer.start}; `stop()` closes every connection.
 *
 * A `kubectl` or `@kubernetes/client-node` pointed at {@link kubeconfig} cannot tell it from a
 * kube-apiserver for what operators use; where it differs, the fidelity report
 * (tools/fidelity, compared with a real kube-apiserver) lists each difference.
 */
export class ApiServer {
  readonly store: ObjectStore;
  readonly registry = new ResourceRegistry();
  readonly resources: ResourceService;
  readonly faults = new FaultRules();
  /** The simulated cluster around the server; started by `start()`, stopped by `stop()`. */
  readonly cluster: SimulatedCluster;
  /** Token of the built-in `admin` user (group `system:masters`). */
  readonly adminToken: string;
  private readonly access: RequestAccess;
  private readonly now: () => Date;
  private readonly watches = new Set<ActiveWatch>();
  private readonly sockets = new Set<Socket>();
  private readonly openApiV2Encoder = openApiV2ProtobufEncoder();
  private server: http.Server | https.Server | undefined;
  private certificates: ServingCertificates | undefined;
  private readonly options: ServingOptions;
  private baseUrl = '';
  private readonly webhookAdmission: WebhookAdmission;

  private constructor(options: ApiServerOptions) {
    this.store = new ObjectStore({ historySize: options.historySize ?? 10_000 });
    this.adminToken = options.adminToken ?? randomBytes(24).toString('hex');
    this.options = servingOptions(options);
    this.now = options.now ?? (() => new Date());
    this.access = new RequestAccess(this.store, this.registry, {
      rbac: options.rbac ?? false,
      now: this.now,
    });
    this.access.tokens.addUserToken(this.adminToken, {
      name: 'admin',
      groups: ['system:masters', 'system:authenticated'],
    });
    this.resources = new ResourceService({
      store: this.store,
      hooks: {
        afterWrite: (type, event, object) => this.afterWrite(type, event, object),
        beforeWrite: (type, object, old, context) =>
          this.access.checkWrite(type, object, old, context),
      },
    });
    this.webhookAdmission = new WebhookAdmission({
      store: this.store,
      servedVersions: (group, plural) =>
        this.registry
          .all()
          .filter((t) => t.group === group && t.plural === plural)
          .map((t) => t.version),
    });
    this.resources.admission = this.webhookAdmission;
    this.cluster = new SimulatedCluster(this, options.cluster);
  }

  /** Starts a server and resolves once it listens; `default` and `kube-system` namespaces exist. */
  static async start(options: ApiServerOptions = {}): Promise<ApiServer> {
    const server = new ApiServer(options);
    await server.listen(options);
    return server;
  }

  private async listen(options: ApiServerOptions): Promise<void> {
    const host = options.host ?? '127.0.0.1';
    const handler = (req: IncomingMessage, res: ServerResponse) => {
      this.handle(req, res).catch((error: unknown) => sendError(res, error));
    };
    const created = await createHttpServer(
      options.https ?? true,
      host,
      options.certificates,
      handler,
    );
    this.server = created.server;
    this.certificates = created.certificates;
    this.server.keepAliveTimeout = 30_000;
    this.server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    const port = await listenOn(this.server, options.port ?? 0, host);
    const urlHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
    this.baseUrl = `${(options.https ?? true) ? 'https' : 'http'}://${urlHost}:${port}`;
    await createBootstrapObjects(this.resources, (group, plural) => this.type(group, plural));
    if (!options.historyFromStart) this.store.compact(this.store.currentRevision());
    await this.cluster.start();
  }

  /** The server's URL, e.g. `https://127.0.0.1:43123`. */
  get url(): string {
    return this.baseUrl;
  }

  /** PEM of the CA that signed the serving certificate (undefined over plain HTTP). */
  get caCertificate(): string | undefined {
    return this.certificates?.caCert;
  }

  /** Whether RBAC is enforced. */
  get rbac(): boolean {
    return this.access.rbac;
  }

  set rbac(enabled: boolean) {
    this.access.rbac = enabled;
  }

  /** Sets the admission chain (webhooks) run around every write. */
  setAdmission(admission: Admission): void {
    this.resources.admission = admission;
  }

  /**
   * Fault injection: calls to the admission webhook named `webhookName` (to every webhook when
   * omitted) fail TLS verification, as if its certificate were signed by an unknown CA, until
   * {@link restoreWebhookTls}. Acts on the built-in webhook admission, not on one installed
   * with {@link setAdmission}.
   */
  cutWebhookTls(webhookName?: string): void {
    this.webhookAdmission.cutTls(webhookName);
  }

  /** Ends every {@link cutWebhookTls}. */
  restoreWebhookTls(): void {
    this.webhookAdmission.restoreTls();
  }

  /** A token that authenticates as `user`, for as long as the server runs. */
  issueToken(user: AuthenticatedUser): string {
    return this.access.tokens.issueUserToken(user);
  }

  /**
   * A token for the service account `namespace/name`, signed as the TokenRequest API signs
   * them. When the account exists, the token is bound to its uid and stops working (401)
   * once the account is deleted; when it does not exist yet, the token is bound to no uid and
   * works whether or not the account exists. It expires after `expirationSeconds`, or never
   * when that is omitted.
   */
  serviceAccountToken(namespace: string, name: string, expirationSeconds?: number): string {
    const account = this.store.get('/serviceaccounts', `${namespace}/${name}`)?.object;
    return this.access.tokens.issueServiceAccountToken({
      namespace,
      name,
      uid: account?.metadata?.uid ?? '',
      ...(expirationSeconds === undefined ? {} : { expirationSeconds }),
    }).token;
  }

  /**
   * A kubeconfig (YAML) for this server: the admin user by default, or the user a token
   * belongs to. HTTPS configs embed the CA, so clients verify the server.
   */
  kubeconfig(options: { token?: string; namespace?: string; name?: string } = {}): string {
    const token = options.token ?? this.adminToken;
    const name = options.name ?? 'ops-local';
    const user = this.access.tokens.userOf(token)?.name ?? 'user';
    const cluster: Json = { server: this.baseUrl };
    if (this.certificates)
      cluster['certificate-authority-data'] = Buffer.from(this.certificates.caCert).toString(
        'base64',
      );
    return YAML.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name, cluster }],
      users: [{ name: user, user: { token } }],
      contexts: [
        { name, context: { cluster: name, user, namespace: options.namespace ?? 'default' } },
      ],
      'current-context': name,
      preferences: {},
    });
  }

  /** Writes {@link kubeconfig} to a file. */
  async writeKubeconfig(
    path: string,
    options: { token?: string; namespace?: string } = {},
  ): Promise<void> {
    await writeFile(path, this.kubeconfig(options), { mode: 0o600 });
  }

  /**
   * What the server holds for its open watches: the watches it tracks and the listeners its
   * store calls on each write (one per watch, plus the simulated cluster's). Both return to
   * their earlier values once the watches opened since have ended, however they ended (the
   * client closed, the server timed out, the watcher fell too far behind).
   */
  watchBookkeeping(): { watches: number; storeListeners: number } {
    return { watches: this.watches.size, storeListeners: this.store.listenerCount() };
  }

  /** Ends every open watch abruptly, as a dropped connection would. */
  dropWatches(): number {
    const count = this.watches.size;
    for (const watch of [...this.watches]) watch.close(true);
    return count;
  }

  /**
   * Simulates an API server restart: every watch is dropped and, unless `keepHistory`, the
   * watch history is lost, so clients resuming from an old resourceVersion get 410 Gone and
   * must relist. Stored objects survive, as they would in etcd.
   */
  restart(options: { keepHistory?: boolean } = {}): void {
    this.dropWatches();
    if (!options.keepHistory) this.store.forgetHistory();
  }

  /**
   * Restarts as kube-apiserver over a kept etcd (history lost), or a wiped one with
   * `resetStore` (see {@link resetStore}); see {@link restartListening}.
   */
  restartListening(options: { downtimeMs?: number; resetStore?: boolean } = {}): Promise<void> {
    this.dropWatches();
    const whileDown = options.resetStore
      ? () => resetStore(this)
      : () => this.store.forgetHistory();
    return restartListening(this.server, this.sockets, whileDown, options.downtimeMs);
  }

  /** Adds a fault rule; see {@link FaultRule}. */
  injectFault(rule: FaultRule): void {
    this.faults.add(rule);
  }

  /** Stops listening and closes every connection. */
  async stop(): Promise<void> {
    await this.cluster.stop();
    this.webhookAdmission.close();
    this.resources.converter.close();
    for (const watch of [...this.watches]) watch.close();
    const server = this.server;
    if (server === undefined) return;
    this.server = undefined;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }

  private type(group: string, plural: string): ResourceType {
    const type = this.registry.findAnyVersion(group, plural);
    if (type === undefined) throw new Error(`no built-in resource ${group}/${plural}`);
    return type;
  }

  private afterWrite(
    type: ResourceType,
    event: 'create' | 'update' | 'delete',
    object: KubernetesObject,
  ): void {
    if (type.group === 'rbac.authorization.k8s.io' || type.group === 'apiextensions.k8s.io')
      this.access.invalidate();
    if (type.group === 'apiextensions.k8s.io' && type.plural === 'customresourcedefinitions') {
      const name = object.metadata?.name ?? '';
      if (event === 'delete') {
        for (const removed of this.registry.removeCustomResource(name))
          this.store.dropResource(storageKeyOf(removed));
      } else if (object.metadata?.deletionTimestamp) {
        // Served until its finalizer-free removal, as kube-apiserver's CRD cleanup does.
      } else {
        this.registry.serveCustomResource(object as CustomResourceDefinitionObject);
      }
    }
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // Routed on the decoded path, as kube-apiserver: `%2F` separates, `%2e%2e` is a name.
    const { path, segments, query } = parseRequestTarget(req.url ?? '/');
    const method = (req.method ?? 'GET').toUpperCase();
    const user = this.access.admit(req, method, path, query);
    if (path === '/healthz' || path === '/livez' || path === '/readyz')
      return sendText(res, 200, 'ok');
    if (path === '/version') return sendJson(res, 200, versionInfo());
    if (path === '/api') return sendJson(res, 200, coreVersions(new URL(this.baseUrl).host));
    if (path === '/apis') return sendJson(res, 200, groupList(this.registry));
    if (path === '/openapi' || path.startsWith('/openapi/'))
      return serveOpenApi(req, res, path, this.registry, this.store, this.openApiV2Encoder);
    if (path.startsWith('/__ops/'))
      return handleControl(
        this,
        {
          maxBodyBytes: this.options.maxBodyBytes,
          webhookTlsCuts: () => this.webhookAdmission.tlsCuts(),
        },
        req,
        res,
        path,
        method,
        user,
      );
    const route = this.route(segments, res);
    if (route === undefined) return;
    await this.handleResource(req, res, route, method, query, user);
  }

  /** Resolves `/api/v1/...` and `/apis/G/V/...`; answers discovery itself (returns undefined). */
  private route(segments: string[], res: ServerResponse): Route | undefined {
    const notFound = () =>
      // kube-apiserver's answer when no route matches: `details: {}`, as its NewNotFound("", "").
      new StatusError(404, 'NotFound', 'the server could not find the requested resource', {});
    let group: string;
    let version: string;
    let rest: string[];
    if (segments[0] === 'api') {
      if (segments[1] !== 'v1') throw notFound();
      group = '';
      version = 'v1';
      rest = segments.slice(2);
    } else if (segments[0] === 'apis' && segments[1] !== undefined) {
      group = segments[1];
      const versions = this.registry.groups().find((g) => g.name === group)?.versions;
      if (versions === undefined) throw notFound();
      if (segments[2] === undefined) {
        sendJson(res, 200, groupDocument(group, versions));
        return undefined;
      }
      version = segments[2];
      if (!versions.includes(version)) throw notFound();
      rest = segments.slice(3);
    } else {
      throw notFound();
    }
    if (rest.length === 0) {
      const types = this.registry.all().filter((t) => t.group === group && t.version === version);
      sendJson(res, 200, resourceList(types, group ? `${group}/${version}` : version));
      return undefined;
    }
    let watchPath = false;
    if (rest[0] === 'watch') {
      watchPath = true;
      rest = rest.slice(1);
    }
    let namespace = '';
    if (rest[0] === 'namespaces' && rest.length >= 3 && group === '') {
      const candidate = this.registry.find(group, version, rest[2] ?? '');
      if (candidate?.namespaced) {
        namespace = rest[1] ?? '';
        rest = rest.slice(2);
      }
    } else if (rest[0] === 'namespaces' && rest.length >= 3) {
      namespace = rest[1] ?? '';
      rest = rest.slice(2);
    }
    const [plural = '', name = '', subresource = '', ...extra] = rest;
    const type = this.registry.find(group, version, plural);
    if (type === undefined || extra.length > 0) throw notFound();
    // No route first (404), then a bad name (400), as go-restful matches before the handler.
    if (namespace && !type.namespaced) throw notFound();
    if (subresource && !subresourceServed(type, subresource)) throw notFound();
    if (name) checkPathSegmentName(name);
    return { type, namespace, name, subresource, watchPath };
  }

  private async handleResource(
    req: IncomingMessage,
    res: ServerResponse,
    route: Route,
    method: string,
    query: URLSearchParams,
    user: AuthenticatedUser,
  ): Promise<void> {
    const { type, namespace, name, subresource } = route;
    const options = parseQueryOptions(method, name !== '', query);
    const context: RequestContext = {
      user,
      dryRun: options.dryRun,
      fieldValidation: options.fieldValidation,
      warnings: [],
      ...writerOf(req, query, options),
    };
    const table = tableRequestOf(req.headers.accept, query);
    const watch = route.watchPath || options.watch;
    const verb = verbOf(method, name, watch);
    if (subresource === 'token')
      return serveTokenRequest(req, res, method, namespace, name, {
        maxBodyBytes: this.options.maxBodyBytes,
        authenticator: this.access.tokens,
        now: this.now,
      });
    if (!type.verbs.includes(verb) && !(subresource && ['get', 'update', 'patch'].includes(verb))) {
      throw StatusError.methodNotAllowed(
        `the server does not allow this method on the requested resource`,
      );
    }
    const fault = this.faults.match({ verb, resource: type.plural, namespace, name });
    if (fault !== undefined) {
      if (fault.delayMs) await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
      if (fault.code !== undefined) throw faultError(fault.code, type, name);
    }
    if (virtualResources.has(storageKeyOf(type))) {
      const body = await readRequestBody(this.options.maxBodyBytes, req);
      return sendJson(res, 201, reviewAccess(type, body, user, this.access));
    }
    return serveVerb(verb, req, res, route, query, context, table, {
      store: this.store,
      resources: this.resources,
      watches: this.watches,
      ...this.options,
    });
  }
}

function faultError(code: number, type: ResourceType, name: string): StatusError {
  switch (code) {
    case 409:
      return StatusError.conflict(
        type,
        name,
        'the object has been modified; please apply your changes to the latest version and try again',
      );
    case 429:
      return StatusError.tooManyRequests('Too many requests, please try again later.');
    case 500:
      return StatusError.internal('injected fault');
    default:
      return new StatusError(code, 'InternalError', `injected fault with code ${code}`);
  }
}
