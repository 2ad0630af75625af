import https from 'node:https';

/** Options of {@link WebhookAgents}. */
export interface WebhookAgentsOptions {
  /** Connections one agent opens at most to one address (more calls queue). Default 32. */
  maxSocketsPerAgent?: number;
  /** Idle kept-alive connections one agent keeps at most per address. Default 8. */
  maxFreeSocketsPerAgent?: number;
  /** An idle kept-alive connection is closed after this long. Default 30,000 ms. */
  idleTimeoutMs?: number;
  /** Agents kept at most; the least recently leased one is retired beyond. Default 256. */
  maxAgents?: number;
}

/** One agent lent for one webhook call: pass `agent` to the request, then `release()`. */
export interface WebhookAgentLease {
  readonly agent: https.Agent;
  /** Ends the lease; call it once, when the call has finished (answered or failed). */
  release(): void;
}

interface Entry {
  key: string;
  agent: https.Agent;
  leases: number;
  retired: boolean;
}

/**
 * The HTTPS connections of the webhook calls, kept alive between calls as kube-apiserver's
 * webhook clients keep theirs: one keep-alive {@link https.Agent} per webhook target (a
 * `clientConfig.url`, or a `clientConfig.service`'s namespace, name and port) and CA bundle,
 * so repeated calls reuse one TLS connection instead of a handshake each.
 *
 * - A target leased with another CA bundle (a rotated `caBundle`, a changed config, or the
 *   TLS fault injection's foreign CA) gets a new agent; the previous one is retired: its idle
 *   connections close at once, its busy ones once their calls end, and it is never lent again.
 * - Bounded: each agent opens at most `maxSocketsPerAgent` connections per address, keeps at
 *   most `maxFreeSocketsPerAgent` idle ones and closes an idle one after `idleTimeoutMs`; at
 *   most `maxAgents` targets keep an agent (the least recently used is retired beyond).
 *   Idle connections never keep the process alive.
 * - {@link close} closes every connection and agent; a lease after it throws.
 */
export class WebhookAgents {
  private readonly entries = new Map<string, Entry>();
  private readonly retired = new Set<Entry>();
  private readonly options: Required<WebhookAgentsOptions>;
  private closed = false;

  constructor(options: WebhookAgentsOptions = {}) {
    this.options = {
      maxSocketsPerAgent: options.maxSocketsPerAgent ?? 32,
      maxFreeSocketsPerAgent: options.maxFreeSocketsPerAgent ?? 8,
      idleTimeoutMs: options.idleTimeoutMs ?? 30_000,
      maxAgents: options.maxAgents ?? 256,
    };
    for (const [name, value] of Object.entries(this.options)) {
      if (!Number.isInteger(value) || value < 1) {
        throw new Error(
          `WebhookAgents option ${name} must be a whole number of at least 1, got ${String(value)}`,
        );
      }
    }
  }

  /**
   * Lends the agent for calls to `target` verified against `ca` (PEM; undefined for the
   * system roots), creating it when the target has none or had one for another CA (which is
   * then retired).
   *
   * @throws {Error} after {@link close}.
   */
  lease(target: string, ca: string | undefined): WebhookAgentLease {
    if (this.closed) {
      throw new Error(
        'the webhook connections are closed (the API server is stopping): no webhook can be called',
      );
    }
    const key = `${ca ?? ''}\u0000${target}`;
    let entry = this.entries.get(target);
    if (entry !== undefined && entry.key !== key) {
      this.retire(entry);
      entry = undefined;
    }
    if (entry === undefined) {
      entry = { key, agent: this.createAgent(), leases: 0, retired: false };
    }
    // Most recently used last: the first entry is the one to retire when over the bound.
    this.entries.delete(target);
    this.entries.set(target, entry);
    for (const [oldest, candidate] of this.entries) {
      if (this.entries.size <= this.options.maxAgents) break;
      this.entries.delete(oldest);
      this.retire(candidate);
    }
    const leased = entry;
    leased.leases++;
    let released = false;
    return {
      agent: leased.agent,
      release: () => {
        if (released) return;
        released = true;
        leased.leases--;
        if (leased.retired && leased.leases === 0) {
          leased.agent.destroy();
          this.retired.delete(leased);
        }
      },
    };
  }

  /** How many targets have an agent (retired ones not counted). */
  get size(): number {
    return this.entries.size;
  }

  /** Closes every connection, busy or idle, and every agent. Safe to call twice. */
  close(): void {
    this.closed = true;
    for (const entry of [...this.entries.values(), ...this.retired]) entry.agent.destroy();
    this.entries.clear();
    this.retired.clear();
  }

  private createAgent(): https.Agent {
    return new https.Agent({
      keepAlive: true,
      maxSockets: this.options.maxSocketsPerAgent,
      maxFreeSockets: this.options.maxFreeSocketsPerAgent,
      // Applies to idle sockets in the pool: the agent closes them when it fires. Calls have
      // their own deadline (timeoutSeconds).
      timeout: this.options.idleTimeoutMs,
    });
  }

  /** Closes the idle connections now and the busy ones as their calls end. */
  private retire(entry: Entry): void {
    entry.retired = true;
    if (entry.leases === 0) {
      entry.agent.destroy();
      return;
    }
    this.retired.add(entry);
    for (const sockets of Object.values(entry.agent.freeSockets)) {
      for (const socket of sockets ?? []) socket.destroy();
    }
  }
}
