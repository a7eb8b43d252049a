/**
 * The limits as a server's options name them (`pico({ limits })`) and as the limits layer resolves
 * them (limits.ts's `resolveLimits`): the core carries them for the layers that read them
 * (`Dispatcher.limits`, `Registry.limits`) without naming this type, through its `Carried` slot.
 */

/**
 * What one server accepts and holds at most, so that no client (or model) can make it grow without
 * bound. Every limit, its default and the error a client sees are listed in docs/limits.md.
 */
export interface Limits {
  /** Largest message, in bytes: a stdio line, and an HTTP body unless `http.maxBodyBytes` says otherwise. Default: 4 MiB. */
  maxMessageBytes?: number;
  /** Requests in progress at once across the whole server. Default: 1024. */
  maxConcurrentRequests?: number;
  /** Requests in progress at once on one connection: a stdio pipe, or a legacy HTTP session. Default: 256. */
  maxConcurrentRequestsPerConnection?: number;
  /** How long a handler may run before its request is answered with an error and its `ctx.signal` aborts. Default: 300,000 ms (5 min). */
  handlerTimeoutMs?: number;
  /** SSE streams open at once on the HTTP endpoint (GET streams, streamed replies, listen). Default: 1000. */
  maxSseStreams?: number;
  /**
   * Bytes an SSE stream, or stdio's output, may hold for a reader that does not keep up; past that an SSE
   * stream is dropped, and stdio drops log, progress and resource update notifications (never a response). Also the bytes
   * of notifications a stream holds behind a resource update's read check; past that later ones are
   * dropped (never a response). Default: 1 MiB.
   */
  maxSseBufferBytes?: number;
  /**
   * Bytes of server-sent events one legacy HTTP session keeps so that a client can resume a dropped
   * stream with `Last-Event-ID`; past it the session forgets its oldest events. Default: 8 MiB.
   */
  maxHistoryBytesPerSession?: number;
  /**
   * Bytes of such events all legacy sessions keep together; past it the session that holds the most
   * forgets its oldest events. Default: 256 MiB.
   */
  maxHistoryBytes?: number;
  /** On shutdown, how long requests in progress may still finish before they are cancelled. Default: 10,000 ms. */
  shutdownGraceMs?: number;
  /** 2026-07-28 requestStates remembered as used, so that each is accepted once (about 130 bytes each). Default: 10,000. */
  maxUsedRequestStates?: number;
  /**
   * Resources one 2025 session may be subscribed to at once (`resources/subscribe`; a URI subscribed
   * again counts once), and resources one 2026-07-28 `subscriptions/listen` request may name. Each is
   * a URI of up to 8,192 characters the server keeps and checks every update against. Default: 1000.
   */
  maxSubscriptionsPerSession?: number;
  /**
   * Characters of the URIs one 2025 session is subscribed to, together (a URI subscribed again counts
   * once), and of those one 2026-07-28 `subscriptions/listen` request names: what they keep for their
   * life, in UTF-16 code units as URI lengths are counted. Default: 65,536 (64 Ki).
   */
  maxSubscriptionBytesPerSession?: number;
  /**
   * 2025-11-25 URL-mode elicitations one session (a stdio pipe, an HTTP session) keeps, sent and not
   * answered yet or accepted and waiting for `server.completeElicitation`. Past it the oldest accepted
   * one is forgotten (its completion then tells nobody); when none is accepted, a new one fails.
   * Default: 100.
   */
  maxUrlElicitationsPerSession?: number;
  /**
   * Tasks an instance may have running at once, those being stored counted (their runs are in its
   * memory, whatever store holds their records); also what the in-memory task store keeps at most,
   * finished tasks included (a finished one of the owner keeping the most makes room). Default: 1000.
   */
  maxTasks?: number;
  /**
   * Tasks one caller may have running at once on an instance, those being stored counted: a verified
   * identity (all its sessions, both eras), or without auth a 2025 session or a stdio pipe. Default: 100.
   */
  maxTasksPerCaller?: number;
  /**
   * Tasks anonymous HTTP requests without a session (2026-07-28 ones, 2025 ones served without
   * sessions) may have running at once on an instance, all of them together: they carry no identity, so the server cannot tell one client from another,
   * and this keeps one such client from taking every task of the instance. Default: half of `maxTasks`
   * (500), rounded up.
   */
  maxAnonymousTasks?: number;
  /**
   * Bytes of HTTP request bodies being read at once across the endpoint: each body holds its
   * Content-Length, or what has arrived of it, until it is read whole or given up. Past it a POST is
   * refused with 503 and Retry-After, so that many slow senders cannot make the server hold
   * connections × the body limit. Default: 16 × the body limit (`http.maxBodyBytes`, else
   * `maxMessageBytes`: 64 MiB); at least that limit.
   */
  maxBodyBytesInFlight?: number;
  /**
   * `serve({ port })` on Node: how long a client may take to send a request's headers, from the
   * connection's start or the request's first byte. Past it Node answers 408 and closes the
   * connection. Default: 10,000 ms (Node's own: 60 s, checked every 30 s).
   */
  headersTimeoutMs?: number;
  /**
   * `serve({ port })` on Node: how long a client may take to send a whole request, headers and body
   * (never its answer: a long tool call or an SSE stream is not cut). Past it Node answers 408 and
   * closes the connection, and what the body held of `maxBodyBytesInFlight` is free. Default:
   * 30,000 ms (Node's own: 300 s).
   */
  receiveTimeoutMs?: number;
  /** `serve({ port })` on Node: connections open at once; past it a new one is closed at once. Default: 10,000. */
  maxConnections?: number;
}

/**
 * Every limit has its value, but two that follow another by default: `maxBodyBytesInFlight` the HTTP
 * body limit, which the endpoint knows, and `maxAnonymousTasks` `maxTasks` (the tasks layer reads it).
 */
type Following = "maxBodyBytesInFlight" | "maxAnonymousTasks";
export type ResolvedLimits = Required<Omit<Limits, Following>> & Pick<Limits, Following>;

declare module "../core/layers.js" {
  interface Carried {
    /** `Dispatcher.limits`; `Registry.limits` holds them too, once a dispatcher is made for it. */
    limits: ResolvedLimits;
  }
}
