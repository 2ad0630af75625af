import type { IncomingMessage, ServerResponse } from 'node:http';
import { StatusError } from '../api/status-error.js';
import type { AuthenticatedUser } from '../auth/index.js';
import type { ApiServer } from './api-server.js';
import type { FaultRule } from './control/faults.js';
import { readRequestBody } from './http/read-request-body.js';
import { sendJson } from './http/responses.js';
import { restartListeningLater } from './restart-listening-later.js';

type Json = Record<string, unknown>;

/** What the control API needs of the server beyond its public methods. */
export interface ControlInternals {
  /** The largest request body accepted. */
  maxBodyBytes: number;
  /** The webhooks whose TLS is cut, as the control API reports them. */
  webhookTlsCuts: () => unknown;
}

/**
 * The control API under `/__ops/` (admin user only, 403 otherwise): drop watches, restart
 * (simulated, or of the listener with `restart-listening`),
 * faults, watch history size, RBAC on or off, cut or restore webhook TLS, finish or fail a
 * Pod, and service-account tokens; 404 naming the README for any other path. Each does what
 * the server's method of the same name does, for tests that drive the server over HTTP.
 */
export async function handleControl(
  server: ApiServer,
  control: ControlInternals,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  method: string,
  user: AuthenticatedUser,
): Promise<void> {
  if (!user.groups.includes('system:masters')) {
    throw new StatusError(403, 'Forbidden', 'the control API is for the admin user only');
  }
  const body =
    method === 'POST'
      ? (((await readRequestBody(control.maxBodyBytes, req, false, true)) as Json | undefined) ??
        {})
      : {};
  switch (`${method} ${path}`) {
    case 'POST /__ops/drop-watches':
      return sendJson(res, 200, { dropped: server.dropWatches() });
    case 'POST /__ops/restart':
      server.restart({ keepHistory: body.keepHistory === true });
      return sendJson(res, 200, {
        restarted: true,
        resourceVersion: String(server.store.currentRevision()),
      });
    case 'POST /__ops/restart-listening':
      return restartListeningLater(server, res, body.downtimeMs, body.resetStore);
    case 'POST /__ops/faults':
      server.injectFault(body as FaultRule);
      return sendJson(res, 200, { faults: server.faults.list() });
    case 'DELETE /__ops/faults':
      server.faults.clear();
      return sendJson(res, 200, { faults: [] });
    case 'GET /__ops/faults':
      return sendJson(res, 200, { faults: server.faults.list() });
    case 'POST /__ops/history':
      if (typeof body.size !== 'number')
        throw StatusError.badRequest('send {"size": <events per resource>}');
      server.store.setHistorySize(body.size);
      return sendJson(res, 200, { size: body.size });
    case 'POST /__ops/rbac':
      server.rbac = body.enabled === true;
      return sendJson(res, 200, { enabled: server.rbac });
    case 'POST /__ops/webhook-tls/cut':
      server.cutWebhookTls(typeof body.webhook === 'string' ? body.webhook : undefined);
      return sendJson(res, 200, control.webhookTlsCuts());
    case 'POST /__ops/webhook-tls/restore':
      server.restoreWebhookTls();
      return sendJson(res, 200, control.webhookTlsCuts());
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
      return sendJson(
        res,
        200,
        await server.cluster.finishPod(ns, name, phase as 'Succeeded' | 'Failed', exitCode),
      );
    }
    case 'POST /__ops/tokens': {
      const ns = typeof body.namespace === 'string' ? body.namespace : '';
      const name = typeof body.serviceAccount === 'string' ? body.serviceAccount : '';
      if (!ns || !name)
        throw StatusError.badRequest('send {"namespace": "...", "serviceAccount": "..."}');
      return sendJson(res, 200, { token: server.serviceAccountToken(ns, name) });
    }
    default:
      throw new StatusError(
        404,
        'NotFound',
        `no control endpoint ${method} ${path}; see the @ops/apiserver README`,
      );
  }
}
