import type { Logger } from 'pino';
import type { AdmissionHandler, AdmissionResult } from './admission-handler.js';
import type { AdmissionRequest, AdmissionResponse } from './admission-review.js';

/**
 * Runs the handler registered at `path` on one admission request and returns the response to
 * send, with the request's `uid`. A handler that throws, or returns no boolean `allowed`,
 * becomes a denial with code 500 (`InternalError`) and the reason in its message, so the API
 * server never waits on a broken handler. Every decision is logged on `logger` with the
 * webhook, operation, object and outcome.
 */
export async function decideAdmission(
  path: string,
  handler: AdmissionHandler,
  request: AdmissionRequest,
  logger: Logger,
): Promise<AdmissionResponse> {
  const fields = {
    webhook: path,
    uid: request.uid,
    operation: request.operation,
    apiVersion:
      request.kind.group === ''
        ? request.kind.version
        : `${request.kind.group}/${request.kind.version}`,
    kind: request.kind.kind,
    namespace: request.namespace,
    name: request.name,
    dryRun: request.dryRun,
  };
  let result: AdmissionResult;
  try {
    result = await handler(request);
  } catch (error) {
    const message = messageOf(error);
    logger.error(
      { ...fields, err: error, allowed: false, code: 500 },
      `admission handler failed: ${message}`,
    );
    return {
      uid: request.uid,
      allowed: false,
      status: { status: 'Failure', code: 500, reason: 'InternalError', message },
    };
  }
  if (typeof result !== 'object' || result === null || typeof result.allowed !== 'boolean') {
    const message = `webhook handler at ${path} returned no decision: return an object with a boolean "allowed" (see admissionAllowed and admissionDenied)`;
    logger.error({ ...fields, allowed: false, code: 500 }, message);
    return {
      uid: request.uid,
      allowed: false,
      status: { status: 'Failure', code: 500, reason: 'InternalError', message },
    };
  }
  const admissionResponse: AdmissionResponse = { ...result, uid: request.uid };
  if (!admissionResponse.allowed) {
    logger.info(
      {
        ...fields,
        allowed: false,
        code: admissionResponse.status?.code,
        reason: admissionResponse.status?.reason,
        message: admissionResponse.status?.message,
        warnings: admissionResponse.warnings,
      },
      'admission denied',
    );
  } else if (admissionResponse.patch !== undefined) {
    logger.info(
      { ...fields, allowed: true, patched: true, warnings: admissionResponse.warnings },
      'admission patched',
    );
  } else {
    logger.info(
      { ...fields, allowed: true, warnings: admissionResponse.warnings },
      'admission allowed',
    );
  }
  return admissionResponse;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
