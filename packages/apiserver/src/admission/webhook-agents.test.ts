import { describe, expect, it, vi } from 'vitest';
import { WebhookAgents } from './webhook-agents.js';

const caA = '-----BEGIN CERTIFICATE-----\nA\n-----END CERTIFICATE-----\n';
const caB = '-----BEGIN CERTIFICATE-----\nB\n-----END CERTIFICATE-----\n';

describe('WebhookAgents', () => {
  it('lends one kept-alive agent per target and CA bundle', () => {
    const agents = new WebhookAgents();
    const first = agents.lease('url https://a/', caA);
    const again = agents.lease('url https://a/', caA);
    const other = agents.lease('service ns/b:443', caA);
    expect(again.agent).toBe(first.agent);
    expect(other.agent).not.toBe(first.agent);
    expect(first.agent.options.keepAlive).toBe(true);
    expect(first.agent.options.timeout).toBe(30_000);
    expect(first.agent.maxSockets).toBe(32);
    expect(first.agent.maxFreeSockets).toBe(8);
    expect(agents.size).toBe(2);
    agents.close();
  });

  it('retires the agent of a target leased with another CA: at once when idle', () => {
    const agents = new WebhookAgents();
    const old = agents.lease('url https://a/', caA);
    old.release();
    const destroy = vi.spyOn(old.agent, 'destroy');
    const rotated = agents.lease('url https://a/', caB);
    expect(rotated.agent).not.toBe(old.agent);
    expect(destroy).toHaveBeenCalledOnce();
    expect(agents.size).toBe(1);
    agents.close();
  });

  it('retires a busy agent once its last call ends, and never lends it again', () => {
    const agents = new WebhookAgents();
    const busy = agents.lease('url https://a/', caA);
    const destroy = vi.spyOn(busy.agent, 'destroy');
    const rotated = agents.lease('url https://a/', caB);
    expect(destroy).not.toHaveBeenCalled();
    const back = agents.lease('url https://a/', caA);
    expect(back.agent).not.toBe(busy.agent);
    expect(back.agent).not.toBe(rotated.agent);
    busy.release();
    busy.release();
    expect(destroy).toHaveBeenCalledOnce();
    agents.close();
  });

  it('keeps at most maxAgents targets, retiring the least recently used', () => {
    const agents = new WebhookAgents({ maxAgents: 2 });
    const a = agents.lease('url https://a/', caA);
    a.release();
    agents.lease('url https://b/', caA).release();
    agents.lease('url https://a/', caA).release();
    const b = agents.lease('url https://b/', caA);
    b.release();
    const destroyA = vi.spyOn(a.agent, 'destroy');
    const destroyB = vi.spyOn(b.agent, 'destroy');
    agents.lease('url https://c/', caA).release();
    expect(destroyA).toHaveBeenCalledOnce();
    expect(destroyB).not.toHaveBeenCalled();
    expect(agents.size).toBe(2);
    agents.close();
  });

  it('closes every agent, busy or retired, and lends none after', () => {
    const agents = new WebhookAgents();
    const busy = agents.lease('url https://a/', caA);
    const idle = agents.lease('url https://b/', undefined);
    idle.release();
    const destroyBusy = vi.spyOn(busy.agent, 'destroy');
    const destroyIdle = vi.spyOn(idle.agent, 'destroy');
    agents.lease('url https://a/', caB);
    agents.close();
    agents.close();
    expect(destroyBusy).toHaveBeenCalledOnce();
    expect(destroyIdle).toHaveBeenCalledOnce();
    expect(agents.size).toBe(0);
    expect(() => agents.lease('url https://a/', caA)).toThrow(
      'the webhook connections are closed (the API server is stopping): no webhook can be called',
    );
  });

  it('refuses bounds that are not whole numbers of at least 1', () => {
    expect(() => new WebhookAgents({ maxSocketsPerAgent: 0 })).toThrow(
      'WebhookAgents option maxSocketsPerAgent must be a whole number of at least 1, got 0',
    );
    expect(() => new WebhookAgents({ idleTimeoutMs: 1.5 })).toThrow(
      'WebhookAgents option idleTimeoutMs must be a whole number of at least 1, got 1.5',
    );
  });
});
