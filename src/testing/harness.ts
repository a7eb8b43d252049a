import { isObject } from "../core/jsonrpc.js";
import type { Implementation } from "../core/types.js";

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
}

/** An MCP client over `server.fetch`: no port, no network, the real HTTP handling in between. */
export interface Harness {
  /** Sends one request; a legacy harness starts its session first (initialize, then initialized). */
  request(method: string, params?: Record<string, unknown>, options?: RequestOptions): Promise<Answer>;
  listTools(options?: RequestOptions): Promise<Answer>;
  callTool(name: string, args?: Record<string, unknown>, options?: RequestOptions): Promise<Answer>;
  /** A plain GET of a path on the same origin, e.g. "/.well-known/oauth-protected-resource/mcp". */
  get(path: string, headers?: Record<string, string>): Promise<Response>;
  /** The legacy session's id, once there is one. */
  readonly sessionId: string | undefined;
  /** Ends the legacy session (DELETE). */
  close(): Promise<void>;
}

const MODERN = "2026-07-28";
const LEGACY = "2025-11-25";

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

  const read = async (response: Response, id: number): Promise<Answer> => {
    const type = response.headers.get("content-type") ?? "";
    let message: Record<string, unknown> | undefined;
    if (type.includes("text/event-stream")) {
      for (const data of eventData(await response.text())) {
        const parsed: unknown = JSON.parse(data);
        if (isObject(parsed) && parsed.id === id) message = parsed;
      }
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

  const request = async (
    method: string,
    params: { _meta?: Record<string, unknown>; [field: string]: unknown } = {},
    request: RequestOptions = {},
  ) => {
    const failed = await start(request);
    if (failed) return failed;
    const id = nextId++;
    if (era === "legacy")
      return read(await send({ jsonrpc: "2.0", id, method, params }, sessionHeaders(), request), id);
    const meta = {
      "io.modelcontextprotocol/protocolVersion": MODERN,
      "io.modelcontextprotocol/clientCapabilities": {},
      "io.modelcontextprotocol/clientInfo": clientInfo,
    };
    const named = params.name ?? params.uri;
    const headers: Record<string, string> = { "mcp-protocol-version": MODERN, "mcp-method": method };
    if (typeof named === "string") headers["mcp-name"] = named;
    const body = { jsonrpc: "2.0", id, method, params: { ...params, _meta: { ...meta, ...params._meta } } };
    return read(await send(body, headers, request), id);
  };

  return {
    request,
    listTools: (request_) => request("tools/list", {}, request_),
    callTool: (name, args = {}, request_) => request("tools/call", { name, arguments: args }, request_),
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

/**
 * The data of each event of an SSE body (WHATWG "Server-sent events"): its `data:` lines joined by
 * newlines; events without data (a priming event, a comment) are skipped.
 */
function eventData(body: string): string[] {
  return body
    .replace(/\r\n?/g, "\n")
    .split("\n\n")
    .map((event) =>
      event
        .split("\n")
        .filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(line.startsWith("data: ") ? 6 : 5))
        .join("\n"),
    )
    .filter((data) => data.trim() !== "");
}
