/**
 * The conversion webhook (controller-runtime's `/convert` handler): answers kube-apiserver's
 * `apiextensions.k8s.io/v1` ConversionReviews with the {@link ConversionDeclaration} of each
 * object's kind.
 */

import {
  type ConversionRequest,
  type ConversionResponse,
  type ConversionReview,
  conversionReviewApiVersion,
  isJsonObject,
  type KubernetesObject,
} from '@ops/api';
import type { Logger } from 'pino';
import type { ConversionDeclaration } from '../crd/conversion.js';
import { describeObject } from '../crd/conversion.js';
import { WebhookServerError } from '../errors/webhook-server-error.js';

/** A ConversionReview read from a request body, or why it is not one. */
export type ParsedConversionReview =
  | { ok: true; request: ConversionRequest }
  | { ok: false; message: string; uid: string };

/**
 * Checks that `json` is an `apiextensions.k8s.io/v1` ConversionReview with a request holding
 * a string `uid`, a `group/version` string `desiredAPIVersion` and an array of objects.
 * Never throws; `message` says what is missing, and `uid` is the request's when it had one.
 */
export function parseConversionReview(json: unknown): ParsedConversionReview {
  const problem = (message: string, uid = ''): ParsedConversionReview => ({
    ok: false,
    message: `not a ConversionReview: ${message}`,
    uid,
  });
  if (!isJsonObject(json)) return problem('the body is not a JSON object');
  if (json.apiVersion !== conversionReviewApiVersion || json.kind !== 'ConversionReview') {
    return problem(
      `expected apiVersion ${conversionReviewApiVersion} and kind ConversionReview, got ${JSON.stringify(json.apiVersion)} and ${JSON.stringify(json.kind)} (list v1 in the CRD's conversionReviewVersions)`,
    );
  }
  const request = json.request;
  if (!isJsonObject(request)) return problem('request is missing');
  const uid = typeof request.uid === 'string' ? request.uid : '';
  if (uid === '') return problem('request.uid is missing');
  if (typeof request.desiredAPIVersion !== 'string' || !request.desiredAPIVersion.includes('/')) {
    return problem(
      `request.desiredAPIVersion must be a group/version string, got ${JSON.stringify(request.desiredAPIVersion)}`,
      uid,
    );
  }
  if (!Array.isArray(request.objects)) return problem('request.objects is not a list', uid);
  const index = request.objects.findIndex((object) => !isJsonObject(object));
  if (index >= 0) return problem(`request.objects[${index}] is not an object`, uid);
  return {
    ok: true,
    request: {
      uid,
      desiredAPIVersion: request.desiredAPIVersion,
      objects: request.objects as KubernetesObject[],
    },
  };
}

/**
 * Converts the objects of ConversionReviews with the conversions of several kinds, found by
 * the group of the object's `apiVersion` and its `kind`. Register it with the webhook server
 * through the declarations (`WebhookServer.register(conversion)`); it is exported for tests
 * and for servers of one's own.
 */
export class ConversionWebhook {
  readonly #byKind = new Map<string, ConversionDeclaration>();

  constructor(declarations: readonly ConversionDeclaration[] = []) {
    for (const declaration of declarations) this.add(declaration);
  }

  /**
   * Serves `declaration`'s kind too.
   *
   * @throws {WebhookServerError} (`DuplicatePath`) when that kind already has a conversion.
   */
  add(declaration: ConversionDeclaration): this {
    const key = keyOf(declaration.definition.group, declaration.definition.kind);
    if (this.#byKind.has(key)) {
      throw new WebhookServerError(
        'DuplicatePath',
        `the conversion of ${declaration.definition.name} is registered twice: register each kind's conversion once`,
      );
    }
    this.#byKind.set(key, declaration);
    return this;
  }

  /** The CRD names (`<plural>.<group>`) of the kinds served, in registration order. */
  get customResourceDefinitions(): string[] {
    return [...this.#byKind.values()].map((declaration) => declaration.definition.name);
  }

  /**
   * The response to `request`, as kube-apiserver expects it: every object converted to
   * `desiredAPIVersion`, in order, with `result.status: Success`; or, at the first object that
   * cannot be converted, `result.status: Failure` (code 422 for an object the conversion
   * refuses, 400 for a kind or version this webhook does not convert) with a message naming
   * the object (`MyJob default/sample`) and the reason, and no objects. Never throws.
   */
  review(request: ConversionRequest, logger?: Logger): ConversionResponse {
    const convertedObjects: KubernetesObject[] = [];
    for (const object of request.objects) {
      const group = groupOf(object.apiVersion);
      const declaration = this.#byKind.get(keyOf(group, object.kind ?? ''));
      if (declaration === undefined) {
        const known = [...this.#byKind.values()].map((d) => d.definition.name).join(', ');
        return failure(
          request.uid,
          400,
          `${describeObject(object)}: no conversion is registered for kind ${JSON.stringify(object.kind)} of ${JSON.stringify(object.apiVersion)} (this webhook converts ${known || 'nothing'})`,
        );
      }
      try {
        convertedObjects.push(declaration.convert(object, request.desiredAPIVersion));
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        logger?.warn(
          { uid: request.uid, desiredAPIVersion: request.desiredAPIVersion, err: error },
          `conversion failed: ${message}`,
        );
        return failure(request.uid, 422, message);
      }
    }
    logger?.info(
      {
        uid: request.uid,
        desiredAPIVersion: request.desiredAPIVersion,
        objects: request.objects.length,
      },
      'converted',
    );
    return { uid: request.uid, convertedObjects, result: { status: 'Success' } };
  }
}

/** A ConversionReview answering `uid` with a failure (a malformed request, a refused object). */
export function conversionFailure(uid: string, code: number, message: string): ConversionReview {
  return {
    apiVersion: conversionReviewApiVersion,
    kind: 'ConversionReview',
    response: failure(uid, code, message),
  };
}

function failure(uid: string, code: number, message: string): ConversionResponse {
  return { uid, convertedObjects: [], result: { status: 'Failure', code, message } };
}

function groupOf(apiVersion: string | undefined): string {
  const slash = (apiVersion ?? '').lastIndexOf('/');
  return slash < 0 ? '' : (apiVersion ?? '').slice(0, slash);
}

function keyOf(group: string, kind: string): string {
  return `${kind}.${group}`;
}
