/** One request of the corpus, sent alike to both servers. */
export interface FidelityRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path and query, from the server's root (`/api/v1/namespaces/x/configmaps?limit=2`). */
  path: string;
  /** A value sent as JSON, or a string sent as it is (YAML, malformed JSON). */
  body?: unknown;
  /** Content-Type of the body (default `application/json`). */
  contentType?: string;
  /** Accept header (default `application/json`). */
  accept?: string;
  /**
   * A watch: read the stream of events until the server ends it, so `path` must carry
   * `watch=true` and `timeoutSeconds`. The answer's body is the list of events.
   */
  stream?: boolean;
}

/** A server's answer to one {@link FidelityRequest}, as the comparison sees it. */
export interface Answer {
  status: number;
  /** The media type of the answer, without parameters (`application/json`). */
  contentType: string;
  /** The `Warning` headers' texts, without their `299 - ` code and quotes. */
  warnings: string[];
  /** Parsed JSON, the text when it is not JSON, or a watch's events. */
  body: unknown;
}

/** How one exchange is compared, beyond the normalization every answer gets. */
export interface CompareOptions {
  /**
   * Compares only these facts of the body (OpenAPI documents, discovery documents too large
   * or too server-specific to compare whole). Receives the body after parsing.
   */
  select?: (body: unknown) => unknown;
  /**
   * Dotted paths of arrays (in the answer: `body.items`) whose order kube-apiserver does not
   * promise; they are compared sorted.
   */
  unordered?: readonly string[];
  /**
   * Dotted paths (`*` for any key or index) whose values depend on the server's own setup
   * rather than its behaviour (a webhook's URL with the port of that server's webhook);
   * replaced by `<masked>` on both sides where present.
   */
  mask?: readonly string[];
}

/** What a scenario sends through: records each request and its answer under a label. */
export interface Session {
  /**
   * Sends `request` and records it under `label` (unique within the scenario) with the way it
   * is compared. Resolves with the answer, whatever its status; rejects only when the server
   * cannot be reached.
   */
  send(label: string, request: FidelityRequest, compare?: CompareOptions): Promise<Answer>;
  /**
   * Sends `request` without recording it: for setup the scenario does not measure (its
   * namespace) and for waiting until a server is ready for the next request.
   */
  probe(request: FidelityRequest): Promise<Answer>;
}

/**
 * One concept of the corpus: a function that sends the same requests to whichever server the
 * session talks to. It derives later requests from earlier answers (a resourceVersion to
 * update with), so both servers see the same conversation. Each scenario works in its own
 * namespace, named after it, on servers that start empty.
 */
export interface FidelityScenario {
  /** `area/topic`, unique in the corpus (`crud/configmap`). */
  name: string;
  /** What it checks, in one line. */
  description: string;
  /** Sends the requests; throws only when the conversation cannot go on. */
  run(session: Session): Promise<void>;
}
