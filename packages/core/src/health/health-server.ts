import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Logger, pino } from 'pino';
import { HealthServerError } from '../errors/health-server-error.js';
import { HttpListener, parseTarget, rejectUnlessGet, writeText } from '../http/http-listener.js';
import {
  defaultCheckTimeoutMs,
  type HealthCheck,
  type HealthCheckResult,
  ping,
  runHealthCheck,
} from './health-check.js';

/** Port the health probe server listens on by default, as controller-runtime's `:8081`. */
export const defaultHealthProbePort = 8081;

/** Options of a {@link HealthServer}. Every one has a default. */
export interface HealthServerOptions {
  /** TCP port; 0 picks a free one (read it from {@link HealthServer.port}). Default 8081. */
  port?: number;
  /** Address to listen on. Default: all interfaces. */
  host?: string;
  /** How long a check may run before it counts as failed, in ms. Default 5 000. */
  checkTimeoutMs?: number;
  /**
   * Print `reason withheld` instead of the error of a failed check in the aggregated output
   * (controller-runtime's behaviour, for probes reachable by untrusted clients). Default
   * false: the reason is printed. `/healthz/<name>` always shows it.
   */
  withholdReasons?: boolean;
  /** How long `stop` lets in-flight requests finish, in ms. Default 5 000. */
  shutdownGracePeriodMs?: number;
  /** Where failures are logged. Default: a silent pino logger. */
  logger?: Logger;
}

type Endpoint = 'healthz' | 'readyz';

/**
 * The liveness and readiness probe server of a manager (controller-runtime's health probe
 * server): plain HTTP serving `/healthz` and `/readyz`, each the aggregate of its named
 * checks, and `/healthz/<name>`, `/readyz/<name>` for one check.
 *
 * Aggregated endpoints run every check concurrently and answer, as controller-runtime does:
 * - all pass: 200 `ok`; with `?verbose`, one `[+]<name> ok` line per check then
 *   `<endpoint> check passed`;
 * - any fails: 500 with one line per check, `[+]<name> ok` or `[-]<name> failed: <reason>`,
 *   then `<endpoint> check failed`;
 * - `?exclude=<name>` (repeatable) skips a check, listed as `[+]<name> excluded: ok`; excluding
 *   an unknown name adds a `warn:` line;
 * - an endpoint without checks has the single check `ping`, which always passes.
 *
 * A single check answers 200 `ok` or 500 `internal server error: <reason>`; an unknown name,
 * or any other path, 404. Methods other than GET and HEAD get 405.
 *
 * Guarantees: a check that throws, rejects or hangs never crashes the server or blocks a probe:
 * it fails, a hanging one after `checkTimeoutMs`. Checks can be added before or after `start`.
 * A stopped server cannot be started again.
 */
export class HealthServer {
  readonly #checks: Record<Endpoint, Map<string, HealthCheck>> = {
    healthz: new Map(),
    readyz: new Map(),
  };
  readonly #listener: HttpListener;
  readonly #logger: Logger;
  readonly #checkTimeoutMs: number;
  readonly #withholdReasons: boolean;

  constructor(options: HealthServerOptions = {}) {
    this.#logger = options.logger ?? pino({ level: 'silent' });
    this.#checkTimeoutMs = options.checkTimeoutMs ?? defaultCheckTimeoutMs;
    this.#withholdReasons = options.withholdReasons ?? false;
    this.#listener = new HttpListener({
      label: 'health probe server',
      className: 'HealthServer',
      port: options.port ?? defaultHealthProbePort,
      host: options.host,
      shutdownGracePeriodMs: options.shutdownGracePeriodMs ?? 5_000,
      logger: this.#logger,
      handle: (request, response) => this.#handle(request, response),
    });
  }

  /**
   * Adds a liveness check, served in `/healthz` and at `/healthz/<name>`.
   *
   * @throws {HealthServerError} `InvalidCheckName` when `name` is empty or contains `/`,
   *   `?`, `#` or whitespace; `DuplicateCheck` when a liveness check has that name already.
   */
  addHealthzCheck(name: string, check: HealthCheck): this {
    this.#add('healthz', name, check);
    return this;
  }

  /**
   * Adds a readiness check, served in `/readyz` and at `/readyz/<name>`.
   *
   * @throws {HealthServerError} as {@link addHealthzCheck}, for readiness checks.
   */
  addReadyzCheck(name: string, check: HealthCheck): this {
    this.#add('readyz', name, check);
    return this;
  }

  /** The names of the liveness and readiness checks, in the order they were added. */
  get checkNames(): { healthz: string[]; readyz: string[] } {
    return {
      healthz: [...this.#checks.healthz.keys()],
      readyz: [...this.#checks.readyz.keys()],
    };
  }

  /** The port the server is bound to while started (useful with `port: 0`), else `undefined`. */
  get port(): number | undefined {
    return this.#listener.port;
  }

  /** True from the moment `start` resolved until `stop` is called. */
  get started(): boolean {
    return this.#listener.started;
  }

  /**
   * Listens; resolves once connections are accepted. Rejects with Node's error if listening
   * fails (e.g. `EADDRINUSE`; the server can then be started again), and with a
   * {@link HealthServerError} if already started (`AlreadyStarted`) or stopped (`Stopped`).
   */
  start(): Promise<void> {
    return this.#listener.start();
  }

  /**
   * Stops accepting connections and resolves once every connection is closed (in-flight
   * probes get up to `shutdownGracePeriodMs`). Harmless when called again or before `start`.
   */
  stop(): Promise<void> {
    return this.#listener.stop();
  }

  #add(endpoint: Endpoint, name: string, check: HealthCheck): void {
    if (name === '' || /[/?#\s]/.test(name)) {
      throw new HealthServerError(
        'InvalidCheckName',
        `invalid ${endpoint} check name ${JSON.stringify(name)}: it becomes the path /${endpoint}/<name>, so it must be non-empty and free of "/", "?", "#" and whitespace (e.g. "informer-sync")`,
      );
    }
    const checks = this.#checks[endpoint];
    if (checks.has(name)) {
      throw new HealthServerError(
        'DuplicateCheck',
        `a ${endpoint} check named "${name}" is already registered: give each check its own name, or combine them into one`,
      );
    }
    checks.set(name, check);
  }

  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const target = parseTarget(request.url);
    const match = /^\/(healthz|readyz)(?:\/([^/]+))?$/.exec(target.pathname);
    const endpoint = match?.[1] as Endpoint | undefined;
    if (match === null || endpoint === undefined) {
      writeText(
        response,
        404,
        `404 page not found: ${target.pathname} is not served here; use /healthz, /readyz, /healthz/<check> or /readyz/<check>\n`,
      );
      return;
    }
    if (rejectUnlessGet(request, response)) return;
    const single = match[2];
    if (single !== undefined) {
      await this.#serveOne(endpoint, safeDecode(single), response);
      return;
    }
    await this.#serveAll(endpoint, target.searchParams, response);
  }

  async #serveOne(endpoint: Endpoint, name: string, response: ServerResponse): Promise<void> {
    const checks = this.#effectiveChecks(endpoint);
    const check = checks.get(name);
    if (check === undefined) {
      const known = [...checks.keys()].join(', ');
      writeText(
        response,
        404,
        `404 page not found: no ${endpoint} check named ${JSON.stringify(name)}; checks: ${known}\n`,
      );
      return;
    }
    const result = await runHealthCheck(check, this.#checkTimeoutMs);
    if (result.ok) {
      writeText(response, 200, 'ok');
      return;
    }
    this.#logger.info({ check: name, endpoint, reason: result.reason }, `${endpoint} check failed`);
    writeText(response, 500, `internal server error: ${result.reason}\n`);
  }

  async #serveAll(
    endpoint: Endpoint,
    query: URLSearchParams,
    response: ServerResponse,
  ): Promise<void> {
    const checks = this.#effectiveChecks(endpoint);
    const unknownExcludes = new Set(query.getAll('exclude'));
    const excluded = new Set<string>();
    for (const name of checks.keys()) {
      if (unknownExcludes.delete(name)) excluded.add(name);
    }
    const results = await Promise.all(
      [...checks].map(
        async ([name, check]): Promise<[string, HealthCheckResult | 'excluded']> => [
          name,
          excluded.has(name) ? 'excluded' : await runHealthCheck(check, this.#checkTimeoutMs),
        ],
      ),
    );
    let failed = false;
    let verbose = '';
    for (const [name, result] of results) {
      if (result === 'excluded') {
        verbose += `[+]${name} excluded: ok\n`;
      } else if (result.ok) {
        verbose += `[+]${name} ok\n`;
      } else {
        failed = true;
        verbose += `[-]${name} failed: ${this.#withholdReasons ? 'reason withheld' : result.reason}\n`;
        this.#logger.info(
          { check: name, endpoint, reason: result.reason },
          `${endpoint} check failed`,
        );
      }
    }
    if (unknownExcludes.size > 0) {
      verbose += `warn: some health checks cannot be excluded: no matches for ${[...unknownExcludes].map((name) => JSON.stringify(name)).join(',')}\n`;
    }
    if (failed) {
      writeText(response, 500, `${verbose}${endpoint} check failed\n`);
      return;
    }
    writeText(response, 200, query.has('verbose') ? `${verbose}${endpoint} check passed\n` : 'ok');
  }

  #effectiveChecks(endpoint: Endpoint): Map<string, HealthCheck> {
    const checks = this.#checks[endpoint];
    return checks.size > 0 ? checks : new Map([['ping', ping]]);
  }
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
