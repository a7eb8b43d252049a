import { isObject } from "../core/jsonrpc.js";
import type { Implementation } from "../core/types.js";
import { EventMessages, type Message } from "./events.js";

export type { Message } from "./events.js";

/** Anything with a Web `fetch` handler: a picomcp server, or any other MCP endpoint. */
export interface Fetcher {
  fetch(request: Request): Promise<Response>;
}

export interface HarnessOptions {
  /** Which protocol era to speak: 2025-11-25 sessions ("legacy", the default) or 2026-07-28 ("modern"). */
  era?: "legacy" | "modern";
  /** The endpoint URL the requests are addressed to. Default: "http://localhost/mcp". */
  url?: string;
  /** A bearer token sent with every request (override per request with `token`). */
  token?: string;
  clientInfo?: Implementation;
}

export interface RequestOptions {
  /** The bearer token of this request; `null` sends none. Default: the harness's. */
  token?: string | null;
  /** More headers. */
  headers?: Record<string, string>;
}

/** What came back: the HTTP status and headers, and the JSON-RPC result or error. */
export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  /** The `WWW-Authenticate` challenge, if any. */
  readonly challenge: string | null;
  readonly result: Record<string, unknown> | undefined;
  readonly error: { code: number; message: string; data?: unknown } | undefined;
  /**
   * The notifications an event stream brought before the answer (progress, log messages). For
   * `subscriptions/listen`, whose stream stays open, the answer is its first message, the
   * acknowledgment (2026-07-28 §4), here, with no result: `listen()` reads what comes after it.
   */
  readonly notifications: readonly Message[];
}

/** An open `subscriptions/listen` stream (2026-07-28 §4), read a message at a time. */
export interface Subscription {
  readonly status: number;
  readonly headers: Headers;
  /** The JSON-RPC error of a listen request the server refused (no stream then). */
  readonly error: Answer["error"];
  /**
   * The stream's next message: the acknowledgment first, then each notification, and the listen
   * request's result if the server ends the subscription (shutdown); undefined once the stream has
   * ended. Rejects if none comes within `timeoutMs` (default 5000); a later call waits for the same one.
   */
  next(timeoutMs?: number): Promise<Message | undefined>;
  /** Closes the stream, which ends the subscription (2026-07-28 §4: the client closes the SSE response). */
  close(): Promise<void>;
}

/** An MCP client over `server.fetch`: no port, no network, the real HTTP handling in between. */
export interface Harness {
  /** Sends one request; a legacy harness starts its session first (initialize, then initialized). */
  request(method: string, params?: Record<string, unknown>, options?: RequestOptions): Promise<Answer>;
  listTools(options?: RequestOptions): Promise<Answer>;
  callTool(name: string, args?: Record<string, unknown>, options?: RequestOptions): Promise<Answer>;
  /**
   * Opens a `subscriptions/listen` stream for `notifications` (e.g. `{ toolsListChanged: true }`),
   * in the 2026-07-28 envelope whatever the harness's era (the method has no 2025 form).
   */
  listen(notifications: Record<string, unknown>, options?: RequestOptions): Promise<Subscription>;
  /** A plain GET of a path on the same origin, e.g. "/.well-known/oauth-protected-resource/mcp". */
  get(path: string, headers?: Record<string, string>): Promise<Response>;
  /** The legacy session's id, once there is one. */
  readonly sessionId: string | undefined;
  /** Ends the legacy session (DELETE). */
  close(): Promise<void>;
}

const MODERN = "2026-07-28";
const LEGACY = "2025-11-25";
const LISTEN = "subscriptions/listen";

/** A request's params, with the `_meta` a 2026-07-28 request merges its envelope into. */
type Params = { _meta?: Record<string, unknown>; [field: string]: unknown };

/**
 * An in-process HTTP harness: builds the requests a real client would send (headers, session id,
 * the 2026-07-28 `_meta` envelope), passes them to `server.fetch`, and reads JSON or SSE answers.
 */
export function harness(server: Fetcher, options: HarnessOptions = {}): Harness {
  const url = options.url ?? "http://localhost/mcp";
  const era = options.era ?? "legacy";
  const clientInfo = options.clientInfo ?? { name: "picomcp-harness", version: "1.0.0" };
  let sessionId: string | undefined;
  // Initialized, with or without a session: a stateless server (sessions: false) gives no session id.
  let initialized = false;
  let nextId = 1;

  const send = async (body: Record<string, unknown>, extra: Record<string, string>, request: RequestOptions) => {
    const token = request.token === undefined ? options.token : request.token;
    const headers: Record<string, string> = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...extra,
      ...request.headers,
    };
    if (token) headers.authorization = `Bearer ${token}`;
    return server.fetch(new Request(url, { method: "POST", headers, body: JSON.stringify(body) }));
  };

  const read = async (response: Response, id: number, method?: string): Promise<Answer> => {
    const type = response.headers.get("content-type") ?? "";
    let message: Message | undefined;
    const notifications: Message[] = [];
    if (type.includes("text/event-stream") && response.body) {
      // Read as the events come, up to the answer: a stream may stay open after it, or without one.
      const events = new EventMessages(response.body);
      for (let next = await events.next(); next; next = await events.next()) {
        if (next.id === id) {
          message = next;
          break;
        }
        notifications.push(next);
        // A listen stream's answer comes only when the subscription ends: its acknowledgment is the answer here.
        if (method === LISTEN) break;
      }
      await events.cancel();
    } else if (type.includes("json")) {
      const body: unknown = await response.json();
      if (isObject(body)) message = body;
    } else {
      await response.body?.cancel();
    }
    return {
      status: response.status,
      headers: response.headers,
      challenge: response.headers.get("www-authenticate"),
      // As the server under test sent them: a JSON-RPC result is an object, an error { code, message, data? }.
      result: message?.result as Answer["result"],
      error: message?.error as Answer["error"],
      notifications,
    };
  };

  const start = async (request: RequestOptions): Promise<Answer | undefined> => {
    if (era === "modern" || initialized) return undefined;
    const id = nextId++;
    const params = { protocolVersion: LEGACY, capabilities: {}, clientInfo };
    const response = await send({ jsonrpc: "2.0", id, method: "initialize", params }, {}, request);
    const answer = await read(response, id);
    if (!answer.result) return answer;
    initialized = true;
    sessionId = response.headers.get("mcp-session-id") ?? undefined;
    await send({ jsonrpc: "2.0", method: "notifications/initialized" }, sessionHeaders(), request);
    return undefined;
  };

  // After initialize every request names the version, session or not (2025-11-25 "Transports").
  const sessionHeaders = (): Record<string, string> => ({
    "mcp-protocol-version": LEGACY,
    ...(sessionId ? { "mcp-session-id": sessionId } : {}),
  });

  /** Sends one request, in the session's era or (`modern`) the 2026-07-28 envelope; answers its response and id. */
  const post = async (
    { method, params, modern }: { method: string; params: Params; modern: boolean },
    request: RequestOptions,
  ): Promise<{ response: Response; id: number }> => {
    const id = nextId++;
    if (!modern) return { response: await send({ jsonrpc: "2.0", id, method, params }, sessionHeaders(), request), id };
    const meta = {
      "io.modelcontextprotocol/protocolVersion": MODERN,
      "io.modelcontextprotocol/clientCapabilities": {},
      "io.modelcontextprotocol/clientInfo": clientInfo,
    };
    const named = params.name ?? params.uri;
    const headers: Record<string, string> = { "mcp-protocol-version": MODERN, "mcp-method": method };
    if (typeof named === "string") headers["mcp-name"] = named;
    const body = { jsonrpc: "2.0", id, method, params: { ...params, _meta: { ...meta, ...params._meta } } };
    return { response: await send(body, headers, request), id };
  };

  const request = async (method: string, params: Params = {}, request: RequestOptions = {}) => {
    const failed = await start(request);
    if (failed) return failed;
    const { response, id } = await post({ method, params, modern: era === "modern" }, request);
    return read(response, id, method);
  };

  const listen = async (notifications: Record<string, unknown>, request: RequestOptions = {}) => {
    const { response, id } = await post({ method: LISTEN, params: { notifications }, modern: true }, request);
    const streamed = (response.headers.get("content-type") ?? "").includes("text/event-stream") && response.body;
    // Refused (an error in JSON, a 4xx): no stream, and the answer says why.
    const refused = streamed ? undefined : await read(response, id);
    const events = streamed ? new EventMessages(streamed) : undefined;
    let pending: Promise<Message | undefined> | undefined;
    return {
      status: response.status,
      headers: response.headers,
      error: refused?.error,
      next: async (timeoutMs = 5000) => {
        if (!events) return undefined;
        pending ??= events.next();
        const reading = pending;
        let timer: ReturnType<typeof setTimeout> | undefined;
        const late = new Promise<never>((_, fail) => {
          timer = setTimeout(
            () => fail(new Error(`No message on the subscriptions/listen stream within ${timeoutMs} ms.`)),
            timeoutMs,
          );
        });
        try {
          const message = await Promise.race([reading, late]);
          pending = undefined;
          return message;
        } finally {
          clearTimeout(timer);
        }
      },
      close: async () => {
        await events?.cancel();
      },
    } satisfies Subscription;
  };

  return {
    request,
    listTools: (request_) => request("tools/list", {}, request_),
    callTool: (name, args = {}, request_) => request("tools/call", { name, arguments: args }, request_),
    listen,
    get: (path, headers = {}) => server.fetch(new Request(new URL(path, url), { headers })),
    get sessionId() {
      return sessionId;
    },
    async close() {
      if (!sessionId) return;
      const headers: Record<string, string> = sessionHeaders();
      if (options.token) headers.authorization = `Bearer ${options.token}`;
      const response = await server.fetch(new Request(url, { method: "DELETE", headers }));
      await response.body?.cancel();
      sessionId = undefined;
      initialized = false;
    },
  };
}
