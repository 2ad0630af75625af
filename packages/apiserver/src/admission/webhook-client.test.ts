import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ObjectStore } from '../store/object-store.js';
import { createServingCertificates } from '../tls/certificates.js';
import { WebhookAgents } from './webhook-agents.js';
import { callWebhook } from './webhook-client.js';
import type { Webhook } from './webhook-configuration.js';

const closers: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/**
 * A webhook that answers the first request of each connection and drops the connection
 * on any later one, as a server that closed an idle connection while a call was on its way.
 */
async function forgetfulWebhook(): Promise<{ port: number; caCert: string; handshakes(): number }> {
  const certificates = await createServingCertificates(['127.0.0.1']);
  const answered = new WeakSet<Socket>();
  let handshakes = 0;
  const server = https.createServer(
    { cert: certificates.cert, key: certificates.key },
    (request, response) => {
      const socket = request.socket;
      if (answered.has(socket)) {
        socket.destroy();
        return;
      }
      answered.add(socket);
      request.resume();
      request.on('end', () => {
        response.writeHead(200, { 'Content-Type': 'application/json' });
        response.end(JSON.stringify({ answer: handshakes }));
      });
    },
  );
  server.on('secureConnection', () => {
    handshakes++;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return {
    port: (server.address() as AddressInfo).port,
    caCert: certificates.caCert,
    handshakes: () => handshakes,
  };
}

function webhookAt(port: number, caCert: string): Webhook {
  return {
    type: 'validating',
    configurationName: 'test',
    index: 0,
    uid: 'test/0',
    name: 'forgetful.example.com',
    clientConfig: {
      url: `https://127.0.0.1:${port}/`,
      caBundle: Buffer.from(caCert).toString('base64'),
    },
    rules: [],
    failurePolicy: 'Fail',
    matchPolicy: 'Equivalent',
    namespaceSelector: {},
    objectSelector: {},
    sideEffects: 'None',
    timeoutSeconds: 10,
    admissionReviewVersions: ['v1'],
    reinvocationPolicy: 'Never',
    matchConditions: [],
  };
}

describe('callWebhook', () => {
  it('tries once more on a new connection when a kept-alive one was closed under it', async () => {
    const target = await forgetfulWebhook();
    const agents = new WebhookAgents();
    closers.push(() => agents.close());
    const webhook = webhookAt(target.port, target.caCert);
    const store = new ObjectStore();
    expect(await callWebhook({ webhook, body: '{}', store, agents })).toEqual({ answer: 1 });
    expect(await callWebhook({ webhook, body: '{}', store, agents })).toEqual({ answer: 2 });
    expect(target.handshakes()).toBe(2);
  });

  it('opens a connection of its own per call without agents', async () => {
    const target = await forgetfulWebhook();
    const webhook = webhookAt(target.port, target.caCert);
    const store = new ObjectStore();
    await callWebhook({ webhook, body: '{}', store });
    await callWebhook({ webhook, body: '{}', store });
    expect(target.handshakes()).toBe(2);
  });
});
