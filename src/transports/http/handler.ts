import type { AuthGate } from "../../auth/gate.js";
import { RequestContext } from "../../core/context.js";
import { type Dispatcher, type Exchange, unsupportedVersion } from "../../core/dispatch.js";
import { claimsModern, type Envelope, readEnvelope } from "../../core/envelope.js";
import { ErrorCode } from "../../core/errors.js";
import {
  classify,
  errorResponse,
  type JsonRpcRequest,
  type JsonRpcResponse,
  parseError,
  type RequestId,
} from "../../core/jsonrpc.js";
import { busy, isUnavailable, shuttingDown } from "../../core/refusal.js";
import { quoted, shown } from "../../core/safe.js";
import { enforceLayer } from "../../core/tools.js";
import { META, type Meta } from "../../core/types.js";
import { BATCH_VERSION, LEGACY_VERSIONS, MODERN_VERSIONS } from "../../core/versions.js";
import type { ResolvedLimits } from "../../limits/options.js";
import type { Peer } from "../../sessions/peer.js";
import { LegacySession } from "../../sessions/session.js";
import type { SharedState } from "../../state/state.js";
import { type Accepts, accepts } from "./accept.js";
import type { Cors } from "./cors.js";
import { mismatchedHeader, mismatchedParamHeader, missingHeader } from "./headers.js";
import type { HttpOptions, SessionOptions } from "./options.js";
import {
  BodiesBusy,
  BodyBudget,
  BodyRefused,
  BodyTooLarge,
  emptyReply,
  errorReply,
  type HttpReply,
  type HttpRequest,
  jsonReply,
  noStreamToResume,
  sseReply,
} from "./reply.js";
import { plainStream, Reply, sessionEnded, stoppedReading, tooManyStreams, unavailable } from "./respond.js";
import { Guard } from "./security.js";
import { OneRequestSession, withoutPushes } from "./sessionless.js";
import type { HttpSession, SessionStore } from "./sessions.js";
import type { SharedSessions } from "./shared.js";
import { Streams } from "./sse.js";

const SESSION_HEADER = "mcp-session-id";

/** Ends the connection after the reply (RFC 9112 §9.6): a body the server will not read, a server shutting down. */
const CLOSE_CONNECTION = { connection: "close" };

/** The parts of an endpoint that only some servers have. */
export interface EndpointParts {
  readonly gate?: AuthGate | undefined;
  readonly cors?: Cors | undefined;
  /** The 404's message for a session id no session here has, where it differs (Workers: workers-endpoint.ts). */
  readonly sessionNotFound?: string | undefined;
}

/** The 404's message for a session id no session here has (2025-11-25 "Session Management"). */
const SESSION_NOT_FOUND = "Session not found: it ended or expired; send initialize to start a new session";

/**
 * The Streamable HTTP endpoint, independent of any runtime: `HttpRequest` in, `HttpReply` out.
 * Both eras share one endpoint (2026-07-28 §10.2): a body whose `_meta` names a protocol version
 * is a stateless modern request; anything else goes to the legacy session layer.
 */
export class HttpHandler {
  readonly #dispatcher: Dispatcher;
  readonly #guard: Guard;
  readonly #path: string | undefined;
  readonly #maxBody: number;
  /** The bytes of request bodies being read at once (limits.maxBodyBytesInFlight). */
  readonly #bodies: BodyBudget;
  /** Legacy sessions' settings; undefined serves legacy requests without sessions. */
  readonly #sessionOptions: SessionOptions | undefined;
  /** The sessions, made (and their code loaded) by the first legacy session. */
  #sessions: SessionStore | undefined;
  readonly #cors: Cors | undefined;
  /** OAuth resource server: protected resource metadata and bearer tokens (`pico({ auth })`). */
  readonly #gate: AuthGate | undefined;
  readonly #streams: Streams;
  /** Sessions shared by several instances (`pico({ state })`): made, with the session code, with the endpoint (`share`). */
  readonly #state: SharedState | undefined;
  #shared: SharedSessions | undefined;
  /** The endpoint of this server that this one took the place of (`share`): it closes with this one. */
  #replaced: HttpHandler | undefined;
  readonly #sessionNotFound: string;

  /**
   * `parts`: what only some servers have, each loaded only for one (see endpoint.ts): the token gate
   * of a server with `auth.verify`, the CORS of a server with `http.cors`, the words of Workers.
   */
  constructor(dispatcher: Dispatcher, options: HttpOptions = {}, parts: EndpointParts = {}) {
    this.#dispatcher = dispatcher;
    const { gate, cors, sessionNotFound = SESSION_NOT_FOUND } = parts;
    this.#sessionNotFound = sessionNotFound;
    this.#cors = cors;
    this.#guard = new Guard(cors ? { ...options, allowedOrigins: cors.origins } : options);
    this.#path = options.path;
    this.#gate = gate;
    const limits = dispatcher.limits;
    const maxBody = options.maxBodyBytes ?? limits.maxMessageBytes;
    this.#maxBody = maxBody;
    // At least one body of the largest size: one between the two limits could never be read.
    this.#bodies = new BodyBudget(Math.max(limits.maxBodyBytesInFlight ?? 16 * maxBody, maxBody));
    this.#streams = new Streams(limits.maxSseStreams, limits.maxSseBufferBytes);
    const sessions = options.sessions ?? true;
    this.#sessionOptions = sessions === false ? undefined : sessions === true ? {} : sessions;
    this.#state = this.#sessionOptions && options.state;
  }

  handle(request: HttpRequest): Promise<HttpReply> | HttpReply {
    const cors = this.#cors;
    const reply = this.#handle(request);
    if (!cors) return reply;
    return reply instanceof Promise ? reply.then((done) => cors.apply(done, request)) : cors.apply(reply, request);
  }

  #handle(request: HttpRequest): Promise<HttpReply> | HttpReply {
    // Host before anything else, on every route: a rebound name gets nothing from this server.
    const refused = this.#guard.checkHost(request);
    if (refused) return refused;
    // The metadata says where to get a token, so it is never behind the token check; it is public,
    // for pages of any origin (CORS "*"), so it is not behind the Origin check either.
    const metadata = this.#gate?.metadata(request);
    if (metadata) return metadata;
    if (this.#path !== undefined && request.path !== this.#path) {
      return errorReply(404, `Not found: the MCP endpoint is ${this.#path}`);
    }
    const denied = this.#guard.checkOrigin(request);
    if (denied) return denied;
    if (this.#gate && !request.auth && request.method !== "OPTIONS") return this.#admit(request);
    // Shutting down: the connection ends with the answer, so the client reconnects elsewhere. A POST
    // is read: the dispatcher refuses its requests (503), while a client's answer to a question, or a
    // cancellation, still reaches the request in progress that waits for it. A GET with
    // Last-Event-ID asks for nothing new either: it collects the answer of a request in progress, or
    // one given meanwhile (SEP-1699 polling), which the shutdown waits for (SessionStore).
    if (this.closing && request.method !== "OPTIONS" && request.method !== "POST" && !isResume(request)) {
      return unavailable(shuttingDown(undefined), CLOSE_CONNECTION);
    }
    // Sessions shared by several instances (shared.ts): the session named is made here first if another instance opened it.
    return this.#shared ? this.#shared.route(request, (prepared) => this.#route(prepared)) : this.#route(request);
  }

  /**
   * Joins the instances sharing `pico({ state })` (shared.ts), as the endpoint is made (endpoint.ts),
   * before it serves a request: from then on this instance relays its changes (list changes, resource
   * updates) to the others' sessions on the bus, a change made before its first request included.
   * `replaced`: the endpoint of the same server this one takes the place of (`serve({ port })` after
   * `fetch`, `node` or another `serve`), which stops relaying in the same turn, so that the server's
   * changes are relayed once, never twice nor by none; it closes with this one (server.close() closes the latest).
   */
  async share(replaced: HttpHandler | undefined): Promise<void> {
    this.#replaced = replaced;
    const state = this.#state;
    if (!state) return;
    const [sessions, { SharedSessions }] = await Promise.all([import("./sessions.js"), import("./shared.js")]);
    this.#shared = new SharedSessions(state, this.#store(sessions), {
      dispatcher: this.#dispatcher,
      gate: this.#gate,
      streams: this.#streams,
      Session: LegacySession,
      refuse: (message) => unavailable(errorResponse(undefined, ErrorCode.InternalError, message)),
      sessionEnded,
    });
    if (replaced) replaced.#shared?.retire();
  }

  #route(request: HttpRequest): Promise<HttpReply> | HttpReply {
    switch (request.method) {
      case "POST":
        return this.#post(request);
      case "GET":
        return this.#get(request);
      case "DELETE":
        return this.#delete(request);
      case "OPTIONS":
        return this.#cors ? this.#cors.preflight(request, this.#allow) : this.#notAllowed();
      default:
        return this.#notAllowed();
    }
  }

  /** The server's limits: `serve({ port })` sets its listener's own from them (node-http.ts). */
  get limits(): ResolvedLimits {
    return this.#dispatcher.limits;
  }

  /**
   * The answer to a request pipelined on a connection behind `limits.maxConcurrentRequestsPerConnection`
   * others whose answers are not sent yet (node-http.ts's pipelining, for serve({ port }) and
   * server.node): not read, refused as busy.
   */
  pipelinedTooDeep(): HttpReply {
    const max = this.limits.maxConcurrentRequestsPerConnection;
    const what = "too many requests are pipelined on this connection behind answers not sent yet";
    return unavailable(busy(undefined, what, { limit: "maxConcurrentRequestsPerConnection", max }));
  }

  /** What one body may take (`http.maxBodyBytes`) and what all take at once (`limits.maxBodyBytesInFlight`). */
  get bodies(): { readonly limit: number; readonly budget: BodyBudget } {
    return { limit: this.#maxBody, budget: this.#bodies };
  }

  /** Whether the server is shutting down (new requests get 503). */
  get closing(): boolean {
    return this.#dispatcher.closing;
  }

  /** Checks the bearer token, then handles the request as that caller. */
  async #admit(request: HttpRequest): Promise<HttpReply> {
    const admitted = await this.#gate!.admit(request);
    if ("status" in admitted) return admitted;
    request.auth = admitted.auth;
    return admitted.finish(await this.#handle(request));
  }

  /**
   * The URL `serve()` listens on, once its listener is bound: auth's resource when `auth.resource`
   * is unset (a `fetch` or `node` endpoint is never told one, see AuthGate).
   */
  listeningAt(url: string): void {
    this.#gate?.listeningAt(url);
  }

  /**
   * Server shutdown: ends every legacy session, and lets go of the registry and the shared state's
   * bus, this endpoint's and those of the endpoints it took the place of (`share`).
   */
  close(): void {
    this.#sessions?.close();
    this.#shared?.close();
    this.#replaced?.close();
  }

  /**
   * Graceful shutdown: new requests get 503, requests in progress have `limits.shutdownGraceMs` to
   * finish (see Dispatcher.drain), then every session and stream ends.
   */
  async shutdown(): Promise<void> {
    await this.#dispatcher.drain();
    this.close();
  }

  /**
   * The headers are checked before the body is read; then the body is answered in the turn it
   * arrives. Not an async function: a request the dispatcher answers at once is replied to in that
   * same turn, with no further promise or await.
   */
  #post(request: HttpRequest): Promise<HttpReply> | HttpReply {
    if (!isJson(request.header("content-type"))) {
      return errorReply(415, "Unsupported Media Type: send the JSON-RPC message with Content-Type: application/json");
    }
    const coding = request.header("content-encoding");
    if (coding !== null && !/^[ \t]*identity[ \t]*$/i.test(coding)) {
      // RFC 9110 §15.5.16: a content coding not decoded is a 415, with the codings that are (none).
      return errorReply(
        415,
        `Unsupported Media Type: the body is sent with Content-Encoding ${quoted(coding)}, which this server does not decode; send it uncompressed`,
        { "accept-encoding": "identity" },
      );
    }
    const accept = accepts(request.header("accept"));
    if (!accept.json && !accept.sse) {
      return errorReply(
        406,
        "Not Acceptable: the Accept header allows neither application/json nor text/event-stream; send Accept: application/json, text/event-stream",
      );
    }
    // Every runtime's `text` rejects, never throws (node-http.ts, node.ts, web.ts): one way for a body not read.
    return request.text(this.#maxBody, this.#bodies, this.#dispatcher.limits.receiveTimeoutMs).then(
      (text) => this.#message(request, text, accept),
      (thrown: unknown) => this.#unread(thrown),
    );
  }

  /** The answer to a body that could not be read. */
  #unread(thrown: unknown): HttpReply {
    if (thrown instanceof BodyTooLarge) {
      // The rest of the body is not read (it may never end): the connection ends with this answer.
      return errorReply(
        413,
        `Payload Too Large: request bodies are limited to ${this.#maxBody} bytes`,
        CLOSE_CONNECTION,
      );
    }
    if (thrown instanceof BodiesBusy) {
      // Refused as other busy requests are; the body is not read, so the connection ends with the answer.
      const reached = { limit: "maxBodyBytesInFlight", max: this.#bodies.max } as const;
      return unavailable(busy(undefined, "too many request bytes are being received", reached), CLOSE_CONNECTION);
    }
    if (thrown instanceof BodyRefused) return thrown.reply;
    // The client went away mid-body, or the body was not readable: there is no request to answer.
    return errorReply(400, "Bad Request: the request body could not be read");
  }

  /** One POSTed body: a JSON-RPC message, or a batch of them. */
  #message(request: HttpRequest, text: string, accept: Accepts): Promise<HttpReply> | HttpReply {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (thrown) {
      return jsonReply(
        400,
        parseError(`${(thrown as Error).message}; send one JSON-RPC message as the body, as JSON in UTF-8`),
      );
    }
    if (Array.isArray(body)) return this.#batch(request, body, accept);
    const inbound = classify(body);
    switch (inbound.kind) {
      case "invalid":
        return jsonReply(400, inbound.error);
      case "request":
        return this.#request(request, inbound.message, accept);
      case "notification": {
        if (claimsModern(inbound.message.params?._meta) || namesModern(request.header("mcp-protocol-version")))
          return emptyReply(202);
        const legacy = this.#legacyPeer(request);
        if ("status" in legacy) return legacy;
        this.#dispatcher.notification(inbound.message, legacy.peer, legacy.session?.connection);
        // One relayed to the other instances sharing its session is answered once relayed (shared.ts's forward).
        return this.#accepted(this.#shared?.forward(legacy.session, inbound.message));
      }
      case "response":
        return this.#responses(request, [inbound.message]);
    }
  }

  /** Makes the sessions' store, once (two requests may load its code at once). */
  #store({ SessionStore }: typeof import("./sessions.js")): SessionStore {
    if (!this.#sessions) {
      this.#sessions = new SessionStore(this.#dispatcher, this.#sessionOptions, this.#streams);
      // With auth, its sessions cut the tokens their requests presented out of what they keep.
      this.#sessions.redact = this.#gate?.redacted;
    }
    return this.#sessions;
  }

  /** 202 for a message taken, once `relayed` (to the other instances sharing its session) settles. */
  #accepted(relayed: Promise<unknown> | undefined): Promise<HttpReply> | HttpReply {
    return relayed ? relayed.then(() => emptyReply(202)) : emptyReply(202);
  }

  /**
   * The client's answers to our questions (legacy elicitation, sampling, roots), one or a batch of
   * them (batch.ts's `responsesOnly`): taken, never answered; 202 once those relayed to the other
   * instances sharing the session are (shared.ts's forward). Under a 2026-07-28 header there is no
   * session to have asked in: taken, as a notification is.
   */
  #responses(request: HttpRequest, responses: JsonRpcResponse[]): Promise<HttpReply> | HttpReply {
    if (namesModern(request.header("mcp-protocol-version"))) return emptyReply(202);
    const legacy = this.#legacyPeer(request);
    if ("status" in legacy) return legacy;
    const relayed: Promise<void>[] = [];
    for (const response of responses) {
      legacy.session?.connection.settle(response);
      const forwarded = this.#shared?.forward(legacy.session, response);
      if (forwarded) relayed.push(forwarded);
    }
    return this.#accepted(relayed.length > 0 ? Promise.all(relayed) : undefined);
  }

  #request(request: HttpRequest, message: JsonRpcRequest, accept: Accepts): Promise<HttpReply> | HttpReply {
    if (isModernClaim(message)) return this.#modern(request, message, accept);
    // Read once for both checks: this one, and the session's (`#legacyPeer`).
    const header = request.header("mcp-protocol-version");
    const version = namesModern(header);
    if (version) {
      // A handshake under a modern header contradicts itself (2026-07-28 §10.2 step 5): header mismatch.
      if (message.method === "initialize") {
        return badRequest(
          message.id,
          ErrorCode.HeaderMismatch,
          `MCP-Protocol-Version header "${version}" names a revision without initialize; send initialize without it, or a 2026-07-28 request with params._meta`,
        );
      }
      return badRequest(
        message.id,
        ErrorCode.InvalidParams,
        `Invalid params: a ${version} request needs params._meta with "${META.protocolVersion}" and "${META.clientCapabilities}"`,
      );
    }
    if (message.method === "initialize") return this.#initialize(message, request);
    const legacy = this.#legacyPeer(request, message.id, header);
    if ("status" in legacy) return legacy;
    const { peer, session } = legacy;
    const reply = new Reply(request, accept, this.#streams);
    // A session's stream is resumable, so a dropped connection does not cancel the request once it streams.
    reply.session = session;
    return reply.answer((exchange) => this.#dispatcher.answerLegacy(message, peer, exchange));
  }

  /** The 2026-07-28 checks, in the order the conformance suite requires (spec §1.2), then dispatch. */
  #modern(request: HttpRequest, message: ModernClaim, accept: Accepts): Promise<HttpReply> | HttpReply {
    const { id } = message;
    const envelope = readEnvelope(id, message.params._meta);
    if (typeof envelope === "string") return badRequest(id, ErrorCode.InvalidParams, `Invalid params: ${envelope}`);
    const mismatch = mismatchedHeader(request, message, envelope.protocolVersion);
    if (mismatch) return badRequest(id, ErrorCode.HeaderMismatch, mismatch);
    if (!MODERN_VERSIONS.includes(envelope.protocolVersion)) {
      // The dispatcher's words; only the status is HTTP's.
      const refusal = this.#dispatcher.closing ? shuttingDown(id) : unsupportedVersion(id, envelope.protocolVersion);
      return jsonReply(400, refusal);
    }
    const missing = missingHeader(request, message, this.#dispatcher.method(message.method)?.nameParam);
    if (missing) return badRequest(id, ErrorCode.HeaderMismatch, missing);
    // Read once: the dispatcher serves the request from this envelope and method, without reading them again.
    const method = this.#dispatcher.modernMethod(message.method);
    if (!method) return jsonReply(404, this.#dispatcher.notFound(message, envelope.protocolVersion));
    if (message.method === "tools/call") {
      const wrong = this.#wrongParamHeader(request, message, envelope);
      // The caller checks load with the first request that needs them: then its checks run again, at once.
      if (wrong instanceof Promise) return wrong.then(() => this.#modern(request, message, accept));
      if (wrong) return badRequest(id, ErrorCode.HeaderMismatch, wrong);
    }
    // A listen request is nothing but a stream: at the stream limit it cannot be served.
    if (message.method === "subscriptions/listen" && this.#streams.full) {
      return unavailable(tooManyStreams(this.#streams, id));
    }
    // The envelope is the client's per request (§1.1), read here against the headers.
    const dispatcher = this.#dispatcher;
    const answer = (exchange: Exchange) =>
      dispatcher.refused(message, exchange) ?? dispatcher.run({ message, method, init: envelope }, exchange);
    const reply = new Reply(request, accept, this.#streams);
    // A listen whose caller's token expired ends as a subscription the server ends: with its result.
    if (message.method === "subscriptions/listen") reply.expired = (listen) => this.#listenEnded(listen);
    return reply.answer(answer);
  }

  /**
   * What is wrong with the `Mcp-Param-*` headers of a tools/call (SEP-2243 "x-mcp-header"), for a tool
   * in the caller's view: one `hideUnauthorized` hides from them is as unknown as one never registered
   * (docs/authorization.md), whose call the dispatcher answers "Unknown tool" whatever its headers say,
   * or a refusal would tell them it exists. A promise while the caller checks load.
   */
  #wrongParamHeader(
    request: HttpRequest,
    message: ModernClaim,
    envelope: Envelope,
  ): string | undefined | Promise<string | undefined> {
    const { registry } = this.#dispatcher;
    const name = message.params.name;
    const tool = typeof name === "string" ? registry.tools.get(name) : undefined;
    const wrong = tool && mismatchedParamHeader(request, tool, message.params.arguments);
    const settings = registry.auth;
    // Only headers that would refuse the call look at its caller: one the headers admit is checked as it runs.
    if (!wrong || !settings?.hide) return wrong;
    const ctx = new RequestContext(envelope, { auth: request.auth }, settings);
    return enforceLayer.use((enforce) => (enforce.shows(ctx, tool.auth) ? wrong : undefined));
  }

  /** The final result of a listen the server ends (2026-07-28 "Subscriptions": SHOULD send it before closing). */
  #listenEnded(id: RequestId): JsonRpcResponse {
    const meta = { [META.serverInfo]: this.#dispatcher.registry.info, [META.subscriptionId]: id };
    return { jsonrpc: "2.0", id, result: { resultType: "complete", _meta: meta } };
  }

  async #initialize(message: JsonRpcRequest, request: HttpRequest): Promise<HttpReply> {
    // The handshake is checked before a session exists: a failed initialize never evicts a live session.
    const peer: Peer = { session: undefined };
    // A request is always answered (only notifications are not).
    const response = (await this.#dispatcher.answerLegacy(message, peer))!;
    if (response.error) return isUnavailable(response) ? unavailable(response) : jsonReply(400, response);
    const options = this.#sessionOptions;
    if (!options) return jsonReply(200, withoutPushes(response));
    // The session code (resumable streams, event history) loads with the first session.
    const session = (this.#sessions ?? this.#store(await import("./sessions.js"))).create();
    session.connection.session = peer.session;
    this.#gate?.bind(session, request.auth);
    await this.#shared?.opened(session);
    return jsonReply(200, response, { [SESSION_HEADER]: session.id });
  }

  /**
   * Batches: only under 2025-03-26 (a session of that version, or without sessions), answered as one
   * JSON array (on Deno, one still running after a second as an event stream: batch-post.ts).
   */
  async #batch(request: HttpRequest, values: unknown[], accept: Accepts): Promise<HttpReply> {
    // Batches are rare (2025-03-26 only): their code, and the words that refuse one, load with the first.
    const { postedBatch } = await import("./batch-post.js");
    const streams = this.#streams;
    return postedBatch(
      {
        dispatcher: this.#dispatcher,
        sessions: this.#sessionOptions !== undefined,
        shared: this.#shared,
        plainStream: (cancel) =>
          accept.sse && !streams.full
            ? plainStream({ streams, onCancel: () => cancel(stoppedReading()), sheds: true })
            : undefined,
        legacyPeer: (posted) => this.#legacyPeer(posted),
        responses: (posted, responses) => this.#responses(posted, responses),
      },
      request,
      values,
    );
  }

  /**
   * The legacy session named by `Mcp-Session-Id`; or, without sessions, a throw-away peer. `id`: the
   * request's, for the error that refuses its `MCP-Protocol-Version` (`version`, where already read).
   */
  #legacyPeer(
    request: HttpRequest,
    id?: RequestId,
    version = request.header("mcp-protocol-version"),
  ): { peer: Peer; session?: HttpSession } | HttpReply {
    const unsupported = unsupportedHeader(version, id);
    if (unsupported) return unsupported;
    if (!this.#sessionOptions) {
      // Without the header a server may assume 2025-03-26 (2025-06-18 "Protocol Version Header").
      const protocolVersion = version !== null && LEGACY_VERSIONS.includes(version) ? version : BATCH_VERSION;
      return { peer: { session: new OneRequestSession(protocolVersion, {}, undefined) } };
    }
    const sessionId = request.header(SESSION_HEADER);
    if (sessionId === null) {
      return errorReply(
        400,
        "Bad Request: the Mcp-Session-Id header is required; send initialize first to start a session",
      );
    }
    const session = this.#owned(request, sessionId);
    if (!session) {
      return errorReply(404, this.#sessionNotFound);
    }
    this.#gate?.presented(session, request.auth);
    return { peer: session.connection, session };
  }

  /** GET opens the session's standalone stream, or resumes one with `Last-Event-ID`. */
  #get(request: HttpRequest): HttpReply | Promise<HttpReply> {
    if (!this.#sessionOptions) return this.#notAllowed();
    if (!accepts(request.header("accept")).sse) {
      return errorReply(406, "Not Acceptable: GET opens an event stream; send Accept: text/event-stream");
    }
    const legacy = this.#legacyPeer(request);
    if ("status" in legacy) return legacy;
    const session = legacy.session!;
    const lastEventId = request.header("last-event-id");
    if (this.#streams.full && !session.replacesReader(lastEventId)) return unavailable(tooManyStreams(this.#streams));
    // The first stream of the process loads the code of streams (sessions.ts): then the GET goes on.
    const loading = session.streamsReady();
    if (loading) return loading.then(() => this.#get(request));
    // Without Last-Event-ID: the standalone stream, which takes the place of one still open (sessions.ts).
    if (lastEventId === null) return sseReply(session.openStandalone(), session.headers);
    const channel = session.resume(lastEventId);
    if (channel) return sseReply(channel, session.headers);
    return this.#shared ? this.#shared.resume(session, lastEventId) : noStreamToResume(lastEventId);
  }

  /** DELETE ends a session; its id answers 404 from then on (2025-11-25 "Session Management"). */
  #delete(request: HttpRequest): HttpReply | Promise<HttpReply> {
    if (!this.#sessionOptions) return this.#notAllowed();
    const unsupported = unsupportedHeader(request.header("mcp-protocol-version"));
    if (unsupported) return unsupported;
    const id = request.header(SESSION_HEADER);
    if (id === null)
      return errorReply(
        400,
        "Bad Request: the Mcp-Session-Id header is required; send the id of the session to end, as initialize's answer gave it",
      );
    if (!this.#owned(request, id) || !this.#sessions?.delete(id)) {
      return errorReply(404, "Session not found: it already ended or expired");
    }
    return this.#shared?.deleted(id) ?? emptyReply(200);
  }

  /** The live session `id` names, where the caller is the one who opened it: to anyone else it does not exist. */
  #owned(request: HttpRequest, id: string): HttpSession | undefined {
    const sessions = this.#sessions;
    const held = sessions?.peek(id);
    // Checked before the use (`use`): anyone else's request neither finds the session nor keeps it from expiring.
    return held && this.#gate?.owns(held, request.auth) !== false ? sessions?.use(held) : undefined;
  }

  get #allow(): string {
    return this.#sessionOptions ? "GET, POST, DELETE" : "POST";
  }

  #notAllowed(): HttpReply {
    const allow = this.#allow;
    return errorReply(405, `Method Not Allowed: use ${allow}`, { allow });
  }
}

/**
 * Whether a Content-Type is the media type application/json (RFC 9110 §8.3.1: type and subtype
 * case-insensitive, then any parameters, such as `charset=utf-8`), not merely a value that contains it.
 */
function isJson(type: string | null): boolean {
  if (type === lastJson) return true;
  if (type === null || !/^[ \t]*application\/json[ \t]*(?:;|$)/i.test(type)) return false;
  lastJson = type;
  return true;
}

/** The last Content-Type found to be JSON: a client sends the same one on every request. */
let lastJson: string | undefined;

/** A GET that resumes a stream of a session (2025-11-25 "Resumability and Redelivery"). */
function isResume(request: HttpRequest): boolean {
  return request.method === "GET" && request.header("last-event-id") !== null;
}

/**
 * Revisions are dates (YYYY-MM-DD), which sort as strings: a header naming a date at or after the
 * first modern one claims the modern era, whose path checks it. Anything else (`zzz`, which also sorts
 * after digits) names no revision.
 */
function isModernVersion(version: string): boolean {
  // The comparison first: it refuses every 2025 revision, which then costs no regex.
  return version >= "2026-07-28" && /^\d{4}-\d\d-\d\d$/.test(version);
}

/** The `MCP-Protocol-Version` header's value, where it names a 2026-07-28-era revision. */
function namesModern(version: string | null): string | undefined {
  return version !== null && isModernVersion(version) ? version : undefined;
}

/** A request that claims the 2026-07-28 era: its `_meta` names a protocol version. */
type ModernClaim = JsonRpcRequest & { readonly params: { readonly _meta: Meta } };

function isModernClaim(message: JsonRpcRequest): message is ModernClaim {
  return claimsModern(message.params?._meta);
}

/**
 * 400 for an `MCP-Protocol-Version` header naming a revision this server does not serve, on every
 * message of a 2025 session, GET and DELETE too (2025-11-25 "Protocol Version Header": MUST); a
 * modern revision is the 2026-07-28 path's to check.
 */
function unsupportedHeader(version: string | null, id?: RequestId): HttpReply | undefined {
  if (version === null || LEGACY_VERSIONS.includes(version) || isModernVersion(version)) return undefined;
  const supported = [...MODERN_VERSIONS, ...LEGACY_VERSIONS].join(", ");
  return badRequest(
    id,
    ErrorCode.InvalidRequest,
    `Bad Request: unsupported MCP-Protocol-Version "${shown(version)}"; this server supports ${supported}`,
  );
}

/** 400 with the JSON-RPC error that says what of the request's headers or envelope is wrong. */
function badRequest(id: RequestId | undefined, code: number, message: string): HttpReply {
  return jsonReply(400, errorResponse(id, code, message));
}
