import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { CustomResourceDefinitionObject, PatchType } from '@ops/api';
import { type KubernetesObject, LabelSelectorError, parseLabelSelector } from '@ops/api';
import YAML from 'yaml';
import { WebhookAdmission } from '../admission/index.js';
import { StatusError } from '../api/status-error.js';
import {
  authorize,
  evaluateSelfSubjectAccessReview,
  evaluateSelfSubjectRulesReview,
  evaluateSubjectAccessReview,
  forbiddenError,
  type RbacPolicy,
  requestAttributesFrom,
  serviceAccountUser,
  type UserInfo,
} from '../auth/index.js';
import { type ClusterOptions, SimulatedCluster } from '../cluster/index.js';
import { patchTypeFromContentType } from '../patch/index.js';
import { virtualResources } from '../registry/builtin-resources.js';
import { ResourceRegistry } from '../registry/resource-registry.js';
import { apiVersionOf, type ResourceType, storageKeyOf } from '../registry/resource-type.js';
import { parseFieldSelector } from '../store/field-selector.js';
import { ObjectStore, type StoreEvent, TooOldResourceVersionError } from '../store/object-store.js';
import type { Admission } from './admission.js';
import { bootstrapPolicy } from './bootstrap-policy.js';
import { createServingCertificates, type ServingCertificates } from './certificates.js';
import { coreVersions, groupDocument, groupList, resourceList, versionInfo } from './discovery.js';
import { type FaultRule, FaultRules } from './faults.js';
import { checkFieldSelector } from './list-page.js';
import { openApiV2, openApiV3Document, openApiV3Index } from './openapi.js';
import { PortInUseError } from './port-in-use-error.js';
import { readRequestBody } from './read-request-body.js';
import {
  type DeleteOptions,
  type ListFilter,
  type RequestContext,
  ResourceService,
} from './resource-service.js';
import { toTable, wantsTable } from './table.js';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Options of {@link ApiServer.start}. */
export interface ApiServerOptions {
  /** TCP port; 0 (the default) picks a free one. */
  port?: number;
  /** Interface to listen on (default 127.0.0.1). */
  host?: string;
  /** Serve HTTPS with a generated CA (default true); false serves plain HTTP. */
  https?: boolean;
  /** Enforce RBAC for every user outside `system:masters` (default false: everyone may do anything). */
  rbac?: boolean;
  /** Events kept per resource for watches and paging (default 10,000). */
  historySize?: number;
  /** How often watches that asked for bookmarks get one (default 5 s). */
  bookmarkIntervalMs?: number;
  /** Watches without `timeoutSeconds` end after this long (default 30 min), as kube-apiserver's do. */
  defaultWatchTimeoutSeconds?: number;
  /** Largest accepted request body (default 3 MiB). */
  maxBodyBytes?: number;
  /** The admin user's bearer token (default: random). */
  adminToken?: string;
  /** Serving certificates to use instead of generated ones (HTTPS only). */
  certificates?: ServingCertificates;
  /** The simulated cluster (controllers, scheduler, kubelet): on by default; see {@link ClusterOptions}. */
  cluster?: boolean | ClusterOptions;
}

/** What a request was found to be. */
interface Route {
  type: ResourceType;
  namespace: string;
  name: string;
  subresource: string;
  watchPath: boolean;
}

interface ActiveWatch {
  response: ServerResponse;
  /** Ends the watch: cleanly (the stream ends) or abruptly (the connection is cut). */
  close(abrupt?: boolean): void;
}

/**
 * The local Kubernetes API server: {@link ResourceService}'s verbs over real HTTP(S), with
 * discovery, OpenAPI, Table output, watches, bearer-token users, optional RBAC and fault
 * injection. Start it with {@link ApiServer.start}; `stop()` closes every connection.
 *
 * A `kubectl` or `@kubernetes/client-node` pointed at {@link kubeconfig} cannot tell it from a
 * kube-apiserver for the behaviours the project's design lists; where it cannot do a thing
 * (server-side apply, for now) it answers as a kube-apiserver without that feature would.
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
  private readonly tokens = new Map<string, UserInfo>();
  private readonly watches = new Set<ActiveWatch>();
  private readonly sockets = new Set<Socket>();
  private server: http.Server | https.Server | undefined;
  private certificates: ServingCertificates | undefined;
  private rbacEnabled: boolean;
  private readonly options: Required<
    Pick<ApiServerOptions, 'bookmarkIntervalMs' | 'defaultWatchTimeoutSeconds' | 'maxBodyBytes'>
  >;
  private policyCache: RbacPolicy | undefined;
  private baseUrl = '';
  private readonly webhookAdmission: WebhookAdmission;

  private constructor(options: ApiServerOptions) {
    this.store = new ObjectStore({ historySize: options.historySize ?? 10_000 });
    this.rbacEnabled = options.rbac ?? false;
    this.adminToken = options.adminToken ?? randomBytes(24).toString('hex');
    this.options = {
      bookmarkIntervalMs: options.bookmarkIntervalMs ?? 5_000,
      defaultWatchTimeoutSeconds: options.defaultWatchTimeoutSeconds ?? 1800,
      maxBodyBytes: options.maxBodyBytes ?? 3 * 1024 * 1024,
    };
    this.tokens.set(this.adminToken, {
      name: 'admin',
      groups: ['system:masters', 'system:authenticated'],
    });
    this.resources = new ResourceService({
      store: this.store,
      hooks: { afterWrite: (type, event, object) => this.afterWrite(type, event, object) },
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
      this.handle(req, res).catch((error: unknown) => this.sendError(res, error));
    };
    if (options.https ?? true) {
      this.certificates =
        options.certificates ??
        (await createServingCertificates([
          'localhost',
          host === '0.0.0.0' ? '127.0.0.1' : host,
          '127.0.0.1',
          '::1',
        ]));
      this.server = https.createServer(
        { cert: this.certificates.cert, key: this.certificates.key },
        handler,
      );
    } else {
      this.server = http.createServer(handler);
    }
    this.server.keepAliveTimeout = 30_000;
    this.server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    const server = this.server;
    const requestedPort = options.port ?? 0;
    await new Promise<void>((resolve, reject) => {
      server.once('error', (error: NodeJS.ErrnoException) =>
        reject(
          error.code === 'EADDRINUSE'
            ? new PortInUseError(requestedPort, host, { cause: error })
            : error,
        ),
      );
      server.listen(requestedPort, host, () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    const urlHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
    this.baseUrl = `${(options.https ?? true) ? 'https' : 'http'}://${urlHost}:${port}`;
    const system = { user: { name: 'system:apiserver', groups: ['system:masters'] } };
    for (const name of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) {
      await this.resources.create(this.type('', 'namespaces'), '', { metadata: { name } }, system);
    }
    const policy = bootstrapPolicy();
    for (const role of policy.clusterRoles) {
      await this.resources.create(
        this.type('rbac.authorization.k8s.io', 'clusterroles'),
        '',
        role,
        system,
      );
    }
    for (const binding of policy.clusterRoleBindings) {
      await this.resources.create(
        this.type('rbac.authorization.k8s.io', 'clusterrolebindings'),
        '',
        binding,
        system,
      );
    }
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
    return this.rbacEnabled;
  }

  set rbac(enabled: boolean) {
    this.rbacEnabled = enabled;
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

  /** A token that authenticates as `user`. */
  issueToken(user: UserInfo): string {
    const token = randomBytes(24).toString('hex');
    this.tokens.set(token, user);
    return token;
  }

  /** A token for the service account `namespace/name` (the account need not exist). */
  serviceAccountToken(namespace: string, name: string): string {
    return this.issueToken(serviceAccountUser(namespace, name));
  }

  /**
   * A kubeconfig (YAML) for this server: the admin user by default, or the user a token
   * belongs to. HTTPS configs embed the CA, so clients verify the server.
   */
  kubeconfig(options: { token?: string; namespace?: string; name?: string } = {}): string {
    const token = options.token ?? this.adminToken;
    const name = options.name ?? 'ops-local';
    const user = this.tokens.get(token)?.name ?? 'user';
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

  /** Adds a fault rule; see {@link FaultRule}. */
  injectFault(rule: FaultRule): void {
    this.faults.add(rule);
  }

  /** Stops listening and closes every connection. */
  async stop(): Promise<void> {
    await this.cluster.stop();
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
    if (type.group === 'rbac.authorization.k8s.io') this.policyCache = undefined;
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

  private policy(): RbacPolicy {
    if (this.policyCache === undefined) {
      const read = (plural: string) =>
        this.store.list(`rbac.authorization.k8s.io/${plural}`).map((s) => s.object);
      this.policyCache = {
        roles: read('roles'),
        clusterRoles: read('clusterroles'),
        roleBindings: read('rolebindings'),
        clusterRoleBindings: read('clusterrolebindings'),
      } as RbacPolicy;
    }
    return this.policyCache;
  }

  private authenticate(req: IncomingMessage): UserInfo {
    const header = req.headers.authorization;
    if (header === undefined)
      return { name: 'system:anonymous', groups: ['system:unauthenticated'] };
    const match = /^Bearer\s+(.+)$/i.exec(header);
    const user = match ? this.tokens.get((match[1] ?? '').trim()) : undefined;
    if (user === undefined) throw new StatusError(401, 'Unauthorized', 'Unauthorized');
    return user;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://local');
    const path = url.pathname.replace(/\/+$/, '') || '/';
    const method = (req.method ?? 'GET').toUpperCase();
    const user = this.authenticate(req);
    const query = url.searchParams;
    if (this.rbacEnabled && !user.groups.includes('system:masters')) {
      const attributes = requestAttributesFrom(method, path, query, user);
      const decision = authorize(attributes, this.policy());
      if (!decision.allowed) throw forbiddenError(attributes);
    }
    if (path === '/healthz' || path === '/livez' || path === '/readyz')
      return this.sendText(res, 200, 'ok');
    if (path === '/version') return this.sendJson(res, 200, versionInfo());
    if (path === '/api') return this.sendJson(res, 200, coreVersions(new URL(this.baseUrl).host));
    if (path === '/apis') return this.sendJson(res, 200, groupList(this.registry));
    if (path === '/openapi/v2') return this.sendJson(res, 200, openApiV2(this.registry));
    if (path === '/openapi/v3')
      return this.sendJson(res, 200, openApiV3Index(this.registry, this.store.currentRevision()));
    if (path.startsWith('/openapi/v3/')) {
      const document = openApiV3Document(this.registry, path.slice('/openapi/v3/'.length));
      if (document === undefined)
        throw new StatusError(404, 'NotFound', 'the server could not find the requested resource');
      return this.sendJson(res, 200, document);
    }
    if (path.startsWith('/__ops/')) return this.handleControl(req, res, path, method, user);
    const segments = path.split('/').filter(Boolean).map(decodeURIComponent);
    const route = this.route(segments, res);
    if (route === undefined) return;
    await this.handleResource(req, res, route, method, query, user);
  }

  /** Resolves `/api/v1/...` and `/apis/G/V/...`; answers discovery itself (returns undefined). */
  private route(segments: string[], res: ServerResponse): Route | undefined {
    const notFound = () =>
      new StatusError(404, 'NotFound', 'the server could not find the requested resource');
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
        this.sendJson(res, 200, groupDocument(group, versions));
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
      this.sendJson(res, 200, resourceList(types, group ? `${group}/${version}` : version));
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
    if (namespace && !type.namespaced) throw notFound();
    if (subresource && !this.subresourceServed(type, subresource)) throw notFound();
    return { type, namespace, name, subresource, watchPath };
  }

  private subresourceServed(type: ResourceType, subresource: string): boolean {
    if (subresource === 'status') return type.subresources.status;
    if (subresource === 'scale') return type.subresources.scale;
    if (subresource === 'finalize') return type.group === '' && type.plural === 'namespaces';
    return false;
  }

  private async handleResource(
    req: IncomingMessage,
    res: ServerResponse,
    route: Route,
    method: string,
    query: URLSearchParams,
    user: UserInfo,
  ): Promise<void> {
    const { type, namespace, name, subresource } = route;
    const warnings: string[] = [];
    const context: RequestContext = {
      user,
      dryRun: query.getAll('dryRun').includes('All'),
      fieldValidation: query.get('fieldValidation') ?? 'Warn',
      warnings,
    };
    const table = wantsTable(req.headers.accept);
    const watch = route.watchPath || query.get('watch') === 'true' || query.get('watch') === '1';
    const verb = this.verbOf(method, name, watch);
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
      return this.sendJson(res, 201, this.review(type, body, user));
    }
    switch (verb) {
      case 'get': {
        const stored = this.resources.get(type, namespace, name);
        if (subresource === 'scale') return this.sendJson(res, 200, scaleOf(type, stored.object));
        if (table)
          return this.sendJson(
            res,
            200,
            toTable(
              type,
              [this.resources.present(type, stored.object)],
              String(stored.resourceVersion),
            ),
          );
        return this.sendRaw(res, 200, this.presentJson(type, stored.object, stored.json()));
      }
      case 'list':
        return this.list(res, type, namespace, query, table);
      case 'watch':
        return this.watch(req, res, type, namespace, name, query, table);
      case 'create': {
        const body = await readRequestBody(this.options.maxBodyBytes, req);
        if (subresource)
          throw StatusError.methodNotAllowed(
            'the server does not allow this method on the requested resource',
          );
        const created = await this.resources.create(type, namespace, body, context);
        return this.sendJson(res, 201, this.resources.present(type, created), warnings);
      }
      case 'update': {
        const body = await readRequestBody(this.options.maxBodyBytes, req);
        if (subresource === 'scale')
          return this.sendJson(
            res,
            200,
            await this.updateScale(type, namespace, name, body, context),
          );
        const updated = await this.resources.update(
          type,
          namespace,
          name,
          body,
          subresource,
          context,
        );
        return this.sendJson(res, 200, this.resources.present(type, updated), warnings);
      }
      case 'patch': {
        const patchType = patchTypeFromContentType(req.headers['content-type'] ?? '') as PatchType;
        const body = await readRequestBody(this.options.maxBodyBytes, req, true);
        if (subresource === 'scale') {
          const current = scaleOf(type, this.resources.get(type, namespace, name).object);
          const patched = await import('../patch/index.js').then((m) =>
            patchType === 'json'
              ? m.applyJsonPatch(current, body)
              : m.applyMergePatch(current, body),
          );
          return this.sendJson(
            res,
            200,
            await this.updateScale(type, namespace, name, patched, context),
          );
        }
        const patched = await this.resources.patch(
          type,
          namespace,
          name,
          patchType,
          body,
          subresource,
          context,
        );
        return this.sendJson(res, 200, this.resources.present(type, patched), warnings);
      }
      case 'delete': {
        const options = await this.deleteOptions(req, query);
        const deleted = await this.resources.delete(type, namespace, name, options, context);
        return this.sendJson(res, 200, this.resources.present(type, deleted));
      }
      case 'deletecollection': {
        const options = await this.deleteOptions(req, query);
        const deleted = await this.resources.deleteCollection(
          type,
          this.filter(type, namespace, query),
          options,
          context,
        );
        return this.sendJson(res, 200, {
          apiVersion: apiVersionOf(type),
          kind: type.listKind,
          metadata: { resourceVersion: String(this.store.currentRevision()) },
          items: deleted.map((o) => this.resources.present(type, o)),
        });
      }
      default:
        throw StatusError.methodNotAllowed(
          `the server does not allow this method on the requested resource`,
        );
    }
  }

  private verbOf(method: string, name: string, watch: boolean): string {
    switch (method) {
      case 'GET':
      case 'HEAD':
        return watch ? 'watch' : name ? 'get' : 'list';
      case 'POST':
        return name ? 'post-item' : 'create';
      case 'PUT':
        return name ? 'update' : 'put-collection';
      case 'PATCH':
        return name ? 'patch' : 'patch-collection';
      case 'DELETE':
        return name ? 'delete' : 'deletecollection';
      default:
        return method.toLowerCase();
    }
  }

  private review(type: ResourceType, body: unknown, user: UserInfo): Json {
    const review = isObject(body) ? body : {};
    const policy = this.rbacEnabled ? this.policy() : undefined;
    const everything = {
      roles: [],
      clusterRoles: [
        {
          metadata: { name: 'all' },
          rules: [
            { apiGroups: ['*'], resources: ['*'], verbs: ['*'] },
            { nonResourceURLs: ['*'], verbs: ['*'] },
          ],
        },
      ],
      roleBindings: [],
      clusterRoleBindings: [
        {
          metadata: { name: 'all' },
          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'all' },
          subjects: [
            { kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'system:authenticated' },
            {
              kind: 'Group',
              apiGroup: 'rbac.authorization.k8s.io',
              name: 'system:unauthenticated',
            },
          ],
        },
      ],
    } as unknown as RbacPolicy;
    const effective = policy ?? everything;
    if (type.plural === 'selfsubjectaccessreviews')
      return evaluateSelfSubjectAccessReview(review, user, effective) as Json;
    if (type.plural === 'selfsubjectrulesreviews')
      return evaluateSelfSubjectRulesReview(review, user, effective) as unknown as Json;
    return evaluateSubjectAccessReview(review, effective) as Json;
  }

  private filter(type: ResourceType, namespace: string, query: URLSearchParams): ListFilter {
    const filter: ListFilter = {};
    if (namespace) filter.namespace = namespace;
    const labelSelector = query.get('labelSelector');
    if (labelSelector) {
      try {
        filter.labels = parseLabelSelector(labelSelector);
      } catch (error) {
        if (LabelSelectorError.isInstance(error))
          throw StatusError.badRequest(`unable to parse requirement: ${error.message}`);
        throw error;
      }
    }
    const fieldSelector = query.get('fieldSelector');
    if (fieldSelector) {
      filter.fields = parseFieldSelector(fieldSelector);
      checkFieldSelector(type, filter.fields);
    }
    return filter;
  }

  private list(
    res: ServerResponse,
    type: ResourceType,
    namespace: string,
    query: URLSearchParams,
    table: boolean,
  ): void {
    const limit = query.get('limit');
    const page = this.resources.list(type, {
      ...this.filter(type, namespace, query),
      ...(limit ? { limit: Number(limit) } : {}),
      ...(query.get('continue') ? { continueToken: query.get('continue') ?? '' } : {}),
      ...(query.has('resourceVersion')
        ? { resourceVersion: query.get('resourceVersion') ?? '' }
        : {}),
      ...(query.has('resourceVersionMatch')
        ? { resourceVersionMatch: query.get('resourceVersionMatch') ?? '' }
        : {}),
    });
    const metadata: Json = { resourceVersion: String(page.resourceVersion) };
    if (page.continueToken) metadata.continue = page.continueToken;
    if (page.remainingItemCount !== undefined)
      metadata.remainingItemCount = page.remainingItemCount;
    if (table) {
      this.sendJson(
        res,
        200,
        toTable(
          type,
          page.items.map((s) => this.resources.present(type, s.object)),
          String(page.resourceVersion),
          page.continueToken ? { continue: page.continueToken } : {},
        ),
      );
      return;
    }
    // The body is made of each object's cached UTF-8 bytes: no re-encoding.
    const head = Buffer.from(
      `${JSON.stringify({ kind: type.listKind, apiVersion: apiVersionOf(type), metadata }).slice(0, -1)},"items":[`,
    );
    const comma = Buffer.from(',');
    const parts: Buffer[] = [head];
    const apiVersion = apiVersionOf(type);
    page.items.forEach((stored, index) => {
      if (index > 0) parts.push(comma);
      parts.push(
        stored.object.apiVersion === apiVersion
          ? stored.bytes()
          : Buffer.from(JSON.stringify(this.resources.present(type, stored.object))),
      );
    });
    parts.push(Buffer.from(']}'));
    let length = 0;
    for (const part of parts) length += part.length;
    res.writeHead(200, {
      'Content-Type': 'application/json',
      'Content-Length': length,
      'Cache-Control': 'no-cache, private',
    });
    // Written as the parts (one vectored write), not concatenated: a list of thousands of
    // objects would otherwise allocate its whole size again outside the heap on every request,
    // and that memory makes V8 collect garbage while other requests wait.
    res.cork();
    for (const part of parts) res.write(part);
    res.end();
  }

  private presentJson(type: ResourceType, object: KubernetesObject, json: string): string {
    return object.apiVersion === apiVersionOf(type)
      ? json
      : JSON.stringify(this.resources.present(type, object));
  }

  private watch(
    req: IncomingMessage,
    res: ServerResponse,
    type: ResourceType,
    namespace: string,
    name: string,
    query: URLSearchParams,
    table: boolean,
  ): void {
    const filter = this.filter(type, namespace, query);
    if (name)
      filter.fields = [
        ...(filter.fields ?? []),
        { field: 'metadata.name', operator: '=', value: name },
      ];
    const key = storageKeyOf(type);
    const bookmarks = query.get('allowWatchBookmarks') === 'true';
    const rv = query.get('resourceVersion') ?? '';
    const sendInitial = query.get('sendInitialEvents') === 'true';
    const timeoutSeconds = Number(
      query.get('timeoutSeconds') ?? this.options.defaultWatchTimeoutSeconds,
    );
    res.writeHead(200, {
      'Content-Type': 'application/json',
      'Transfer-Encoding': 'chunked',
      'Cache-Control': 'no-cache, private',
    });
    res.flushHeaders();
    const write = (type_: string, objectJson: string) => {
      res.write(`{"type":"${type_}","object":${objectJson}}\n`);
    };
    const objectJson = (object: KubernetesObject, json: () => string): string =>
      table
        ? JSON.stringify(
            toTable(
              type,
              [this.resources.present(type, object)],
              object.metadata?.resourceVersion ?? '',
            ),
          )
        : this.presentJson(type, object, json());
    const emit = (event: StoreEvent) => {
      const now = this.resources.matches(type, event.current.object, filter);
      const before =
        event.previous !== undefined && this.resources.matches(type, event.previous.object, filter);
      let kind: string | undefined;
      if (event.type === 'DELETED') kind = before ? 'DELETED' : undefined;
      else if (now && before) kind = 'MODIFIED';
      else if (now) kind = 'ADDED';
      else if (before) kind = 'DELETED';
      if (kind !== undefined)
        write(
          kind,
          objectJson(event.current.object, () => event.current.json()),
        );
    };
    const bookmark = (annotations?: Json) => {
      const metadata: Json = { resourceVersion: String(this.store.currentRevision()) };
      if (annotations) metadata.annotations = annotations;
      write(
        'BOOKMARK',
        JSON.stringify({ kind: type.kind, apiVersion: apiVersionOf(type), metadata }),
      );
    };
    let unsubscribe: () => void = () => undefined;
    try {
      if (rv === '' || rv === '0' || sendInitial) {
        const initial =
          sendInitial && rv !== '' && rv !== '0'
            ? this.store.eventsSince(key, Number(rv))
            : undefined;
        if (initial !== undefined) {
          for (const event of initial) emit(event);
        } else {
          for (const stored of this.store.list(key)) {
            if (this.resources.matches(type, stored.object, filter))
              write(
                'ADDED',
                objectJson(stored.object, () => stored.json()),
              );
          }
        }
        if (sendInitial && bookmarks) bookmark({ 'k8s.io/initial-events-end': 'true' });
      } else {
        const since = Number(rv);
        if (!Number.isInteger(since) || since < 0)
          throw StatusError.badRequest(
            `resourceVersion: Invalid value: "${rv}": must be a non-negative integer`,
          );
        for (const event of this.store.eventsSince(key, since)) emit(event);
      }
      unsubscribe = this.store.subscribe(key, emit);
    } catch (error) {
      if (!(error instanceof TooOldResourceVersionError)) throw error;
      write(
        'ERROR',
        JSON.stringify(
          StatusError.gone(
            `too old resource version: ${error.requested} (${error.oldest})`,
          ).toStatus(),
        ),
      );
      res.end();
      return;
    }
    const timers: NodeJS.Timeout[] = [];
    let closed = false;
    const active: ActiveWatch = {
      response: res,
      close: (abrupt = false) => {
        if (closed) return;
        closed = true;
        unsubscribe();
        for (const timer of timers) clearTimeout(timer);
        this.watches.delete(active);
        // An abrupt close cuts the connection without ending the chunked stream, so clients
        // see a broken watch and never reuse the socket.
        if (abrupt) res.socket?.destroy();
        else if (!res.writableEnded) res.end();
      },
    };
    this.watches.add(active);
    if (bookmarks) timers.push(setInterval(() => bookmark(), this.options.bookmarkIntervalMs));
    timers.push(
      setTimeout(() => {
        if (bookmarks) bookmark();
        active.close();
      }, Math.max(0, timeoutSeconds) * 1000),
    );
    req.on('close', () => active.close());
    res.on('close', () => active.close());
  }

  private async updateScale(
    type: ResourceType,
    namespace: string,
    name: string,
    body: unknown,
    context: RequestContext,
  ): Promise<Json> {
    const replicas = isObject(body) && isObject(body.spec) ? body.spec.replicas : undefined;
    if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0) {
      throw StatusError.invalid({ group: 'autoscaling', resource: 'scale', kind: 'Scale' }, name, [
        {
          type: 'FieldValueInvalid',
          field: 'spec.replicas',
          value: replicas ?? null,
          detail: 'must be greater than or equal to 0',
        },
      ]);
    }
    const updated = await this.resources.patch(
      type,
      namespace,
      name,
      'merge',
      { spec: { replicas } },
      '',
      context,
    );
    return scaleOf(type, updated);
  }

  private async deleteOptions(
    req: IncomingMessage,
    query: URLSearchParams,
  ): Promise<DeleteOptions> {
    const body = await readRequestBody(this.options.maxBodyBytes, req, false, true);
    const options: DeleteOptions = isObject(body) ? (body as DeleteOptions) : {};
    const policy = query.get('propagationPolicy');
    if (policy) options.propagationPolicy = policy;
    const grace = query.get('gracePeriodSeconds');
    if (grace !== null) options.gracePeriodSeconds = Number(grace);
    return options;
  }

  private async handleControl(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    method: string,
    user: UserInfo,
  ): Promise<void> {
    if (!user.groups.includes('system:masters')) {
      throw new StatusError(403, 'Forbidden', 'the control API is for the admin user only');
    }
    const body =
      method === 'POST'
        ? (((await readRequestBody(this.options.maxBodyBytes, req, false, true)) as
            | Json
            | undefined) ?? {})
        : {};
    switch (`${method} ${path}`) {
      case 'POST /__ops/drop-watches':
        return this.sendJson(res, 200, { dropped: this.dropWatches() });
      case 'POST /__ops/restart':
        this.restart({ keepHistory: body.keepHistory === true });
        return this.sendJson(res, 200, {
          restarted: true,
          resourceVersion: String(this.store.currentRevision()),
        });
      case 'POST /__ops/faults':
        this.injectFault(body as FaultRule);
        return this.sendJson(res, 200, { faults: this.faults.list() });
      case 'DELETE /__ops/faults':
        this.faults.clear();
        return this.sendJson(res, 200, { faults: [] });
      case 'GET /__ops/faults':
        return this.sendJson(res, 200, { faults: this.faults.list() });
      case 'POST /__ops/history':
        if (typeof body.size !== 'number')
          throw StatusError.badRequest('send {"size": <events per resource>}');
        this.store.setHistorySize(body.size);
        return this.sendJson(res, 200, { size: body.size });
      case 'POST /__ops/rbac':
        this.rbacEnabled = body.enabled === true;
        return this.sendJson(res, 200, { enabled: this.rbacEnabled });
      case 'POST /__ops/webhook-tls/cut':
        this.cutWebhookTls(typeof body.webhook === 'string' ? body.webhook : undefined);
        return this.sendJson(res, 200, this.webhookAdmission.tlsCuts());
      case 'POST /__ops/webhook-tls/restore':
        this.restoreWebhookTls();
        return this.sendJson(res, 200, this.webhookAdmission.tlsCuts());
      case 'POST /__ops/pods/finish':
      case 'POST /__ops/pods/fail': {
        const ns = typeof body.namespace === 'string' ? body.namespace : '';
        const name = typeof body.name === 'string' ? body.name : '';
        if (!ns || !name)
          throw StatusError.badRequest(
            'send {"namespace": "...", "name": "...", "phase": "Succeeded"|"Failed", "exitCode": <n>}',
          );
        const exitCode = typeof body.exitCode === 'number' ? body.exitCode : undefined;
        const phase = path === '/__ops/pods/fail' ? 'Failed' : body.phase;
        return this.sendJson(
          res,
          200,
          await this.cluster.finishPod(ns, name, phase as 'Succeeded' | 'Failed', exitCode),
        );
      }
      case 'POST /__ops/tokens': {
        const ns = typeof body.namespace === 'string' ? body.namespace : '';
        const name = typeof body.serviceAccount === 'string' ? body.serviceAccount : '';
        if (!ns || !name)
          throw StatusError.badRequest('send {"namespace": "...", "serviceAccount": "..."}');
        return this.sendJson(res, 200, { token: this.serviceAccountToken(ns, name) });
      }
      default:
        throw new StatusError(
          404,
          'NotFound',
          `no control endpoint ${method} ${path}; see the @ops/apiserver README`,
        );
    }
  }

  private sendJson(
    res: ServerResponse,
    code: number,
    body: unknown,
    warnings: string[] = [],
  ): void {
    for (const warning of warnings) res.appendHeader('Warning', `299 - ${JSON.stringify(warning)}`);
    this.sendRaw(res, code, JSON.stringify(body));
  }

  private sendRaw(res: ServerResponse, code: number, json: string): void {
    res.writeHead(code, {
      'Content-Type': 'application/json',
      'Content-Length': Buffer.byteLength(json),
      'Cache-Control': 'no-cache, private',
    });
    res.end(json);
  }

  private sendText(res: ServerResponse, code: number, text: string): void {
    res.writeHead(code, { 'Content-Type': 'text/plain; charset=utf-8' });
    res.end(text);
  }

  private sendError(res: ServerResponse, error: unknown): void {
    const status = StatusError.isInstance(error)
      ? error
      : StatusError.internal(error instanceof Error ? error.message : String(error));
    if (!StatusError.isInstance(error)) console.error('apiserver: unexpected error', error);
    if (res.headersSent) {
      res.destroy();
      return;
    }
    if (status.code === 429 || status.code === 504)
      res.setHeader('Retry-After', String(status.details?.retryAfterSeconds ?? 1));
    this.sendJson(res, status.code, status.toStatus());
  }
}

function scaleOf(type: ResourceType, object: KubernetesObject): Json {
  const spec = isObject(object.spec) ? object.spec : {};
  const status = isObject(object.status) ? object.status : {};
  const selector =
    isObject(spec.selector) && isObject(spec.selector.matchLabels)
      ? Object.entries(spec.selector.matchLabels)
          .map(([k, v]) => `${k}=${String(v)}`)
          .join(',')
      : '';
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: {
      name: object.metadata?.name,
      namespace: object.metadata?.namespace,
      uid: object.metadata?.uid,
      resourceVersion: object.metadata?.resourceVersion,
      creationTimestamp: object.metadata?.creationTimestamp,
    },
    spec: { replicas: spec.replicas ?? 0 },
    status: { replicas: status.replicas ?? 0, selector },
    ...(type.kind ? {} : {}),
  };
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
