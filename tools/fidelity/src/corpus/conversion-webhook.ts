import { startHttpsWebhook } from './https-webhook.js';

/** A running conversion webhook of the corpus. */
export interface RunningConversionWebhook {
  /** `https://127.0.0.1:<port>/convert`. */
  url: string;
  /** The CA that signed its serving certificate, base64 PEM (the CRD's `caBundle`). */
  caBundle: string;
  close(): Promise<void>;
}

type Json = Record<string, unknown>;

/**
 * How the webhook answers for an object whose label `answer` names a failure mode, when the
 * object is converted to the version its label `answer-to` names (every version without it):
 * a `Failure` result, a body that is not JSON, another uid, fewer objects, a renamed object,
 * an unconverted apiVersion, another kind, or (allowed) a label added.
 */
type Mode = 'fail' | 'garbage' | 'wrong-uid' | 'drop' | 'rename' | 'stay' | 'rekind' | 'relabel';

/**
 * Converts a Gadget between `v1beta1` (`spec.image`, `spec.port`) and `v1`
 * (`spec.container: {image, port}`), losslessly.
 */
function convert(object: Json, desiredAPIVersion: string): Json {
  const spec = (object.spec ?? {}) as Json;
  const converted: Json = { ...object, apiVersion: desiredAPIVersion };
  if (desiredAPIVersion.endsWith('/v1')) {
    const { image, port, ...rest } = spec;
    converted.spec = { ...rest, container: { image, port } };
  } else {
    const { container, ...rest } = spec;
    const { image, port } = (container ?? {}) as Json;
    converted.spec = { ...rest, image, port };
  }
  return converted;
}

/** The failure mode that applies to converting `object` to `desiredAPIVersion`, if any. */
function modeOf(object: Json, desiredAPIVersion: string): Mode | undefined {
  const labels = ((object.metadata as Json | undefined)?.labels ?? {}) as Record<string, string>;
  const to = labels['answer-to'];
  if (to !== undefined && !desiredAPIVersion.endsWith(`/${to}`)) return undefined;
  return labels.answer as Mode | undefined;
}

/**
 * Starts an HTTPS ConversionReview (apiextensions.k8s.io/v1) webhook on a free loopback port,
 * answering at any path: it converts Gadgets (see {@link convert}) and misbehaves as an
 * object's `answer` label says (see {@link Mode}).
 */
export async function startConversionWebhook(): Promise<RunningConversionWebhook> {
  const webhook = await startHttpsWebhook((_path, body) => {
    const { uid, desiredAPIVersion, objects } = (
      body as { request: { uid: string; desiredAPIVersion: string; objects: Json[] } }
    ).request;
    const modes = objects.map((object) => modeOf(object, desiredAPIVersion));
    const reply = (result: Json, convertedObjects: Json[], answerUid = uid) => ({
      body: {
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'ConversionReview',
        response: { uid: answerUid, result, convertedObjects },
      },
    });
    if (modes.includes('garbage')) return { body: 'this is not JSON' };
    if (modes.includes('fail'))
      return reply({ status: 'Failure', message: 'the gadget cannot be converted' }, []);
    const converted = objects.map((object, index) => {
      const result = convert(object, desiredAPIVersion);
      const metadata = { ...(result.metadata as Json) };
      result.metadata = metadata;
      const mode = modes[index];
      if (mode === 'rename') metadata.name = `${String(metadata.name)}-renamed`;
      if (mode === 'stay') result.apiVersion = object.apiVersion;
      if (mode === 'rekind') result.kind = 'Gizmo';
      if (mode === 'relabel') metadata.labels = { ...(metadata.labels as Json), converted: 'yes' };
      return result;
    });
    const kept = modes.includes('drop') ? converted.slice(1) : converted;
    return reply({ status: 'Success' }, kept, modes.includes('wrong-uid') ? 'not-the-uid' : uid);
  });
  return { url: webhook.url('/convert'), caBundle: webhook.caBundle, close: webhook.close };
}
