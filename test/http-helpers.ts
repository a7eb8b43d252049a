/**
 * Shared helpers of the HTTP tests: requests built for `server.fetch` (no network), and a small
 * reader of `text/event-stream` bodies.
 */
import { expect } from "vitest";
import { META } from "../src/core/types.js";
import type { Server } from "../src/index.js";

export const ENDPOINT = "http://localhost/mcp";
export const MODERN = "2026-07-28";
export const BOTH = "application/json, text/event-stream";

/** The message of the 403 a Host outside `allowedHosts` gets (src/transports/http/security.ts). */
export const hostRefused = (host: string) =>
  `Forbidden: Host "${host}" is not allowed; send the request to a host name this server accepts (its operator lists them in http.allowedHosts)`;

/** The message of the 403 an Origin neither the server's own nor allowed gets. */
export const originRefused = (origin: string) =>
  `Forbidden: Origin "${origin}" is not allowed; this server answers only pages of its own origin and of those its operator lists in http.allowedOrigins or http.cors`;

type Headers = Record<string, string | null | undefined>;

/** A POST of `body` (a value is JSON-encoded) with JSON content type and both Accept types; a null header is left out. */
export function post(body: unknown, headers: Headers = {}, init: RequestInit = {}): Request {
  return new Request(ENDPOINT, {
    method: "POST",
    body: typeof body === "string" ? body : JSON.stringify(body),
    ...init,
    headers: clean({ "content-type": "application/json", accept: BOTH, ...headers }),
  });
}

/** A request without a body (GET, DELETE, …). */
export function bare(method: string, headers: Headers = {}, init: RequestInit = {}): Request {
  return new Request(ENDPOINT, { method, ...init, headers: clean(headers) });
}

function clean(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== null && value !== undefined) out[name] = value;
  return out;
}

/** The 2026-07-28 envelope (§1.1), with `extra` keys merged in. */
export function meta(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { [META.protocolVersion]: MODERN, [META.clientCapabilities]: {}, ...extra };
}

let nextId = 1;

/**
 * A well-formed 2026-07-28 request as its parts: the body, with the envelope in `_meta`, and the
 * standard headers mirroring it (MCP-Protocol-Version, Mcp-Method, and Mcp-Name for the methods that
 * name something).
 */
export function modernMessage(
  method: string,
  params: Record<string, unknown> = {},
  id: string | number = nextId++,
): { headers: Record<string, string>; body: Record<string, unknown> } {
  const named = params.name ?? params.uri;
  return {
    headers: {
      "mcp-protocol-version": MODERN,
      "mcp-method": method,
      ...(typeof named === "string" ? { "mcp-name": named } : {}),
    },
    body: { jsonrpc: "2.0", id, method, params: { ...params, _meta: meta(params._meta as Record<string, unknown>) } },
  };
}

/** A well-formed 2026-07-28 request for `server.fetch` (see modernMessage); a null header is left out. */
export function modern(
  method: string,
  params: Record<string, unknown> = {},
  headers: Headers = {},
  init: RequestInit & { id?: string | number } = {},
): Request {
  const { id, ...rest } = init;
  const message = modernMessage(method, params, id);
  return post(message.body, { ...message.headers, ...headers }, rest);
}

/** The `fetch` init of a 2026-07-28 tools/call of `name` to a real listener, with its standard headers. */
export function modernCallInit(name: string, init: RequestInit = {}): RequestInit {
  const { headers, body } = modernMessage("tools/call", { name, arguments: {} });
  return {
    method: "POST",
    headers: { "content-type": "application/json", accept: BOTH, ...headers },
    body: JSON.stringify(body),
    ...init,
  };
}

/** A 2025-11-25 `initialize` (id 1) from a client that answers form elicitations: for tests whose tools ask. */
export const ELICITING_INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-11-25",
    capabilities: { elicitation: { form: {} } },
    clientInfo: { name: "t", version: "1" },
  },
};

/** A real listener at `url` as these helpers take a server (`initialize`): each request goes there over the network. */
export function remote(url: string): Pick<Server, "fetch"> {
  return {
    fetch: async (request) =>
      fetch(url, {
        method: request.method,
        headers: request.headers,
        ...(request.body ? { body: await request.text() } : {}),
      }),
  };
}

/** Sends `initialize` and returns the new session's id. */
export async function initialize(server: Pick<Server, "fetch">, protocolVersion = "2025-11-25"): Promise<string> {
  const response = await server.fetch(
    post({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion, capabilities: {}, clientInfo: { name: "test", version: "1" } },
    }),
  );
  expect(response.status).toBe(200);
  const id = response.headers.get("mcp-session-id");
  expect(id).toMatch(/^[\x21-\x7e]+$/);
  await response.json();
  const initialized = await server.fetch(
    post(
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { "mcp-session-id": id, "mcp-protocol-version": protocolVersion },
    ),
  );
  expect(initialized.status).toBe(202);
  return id!;
}

/** A POST inside a legacy session. */
export function inSession(session: string, body: unknown, headers: Headers = {}, init: RequestInit = {}): Request {
  return post(body, { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25", ...headers }, init);
}

/** What a request in a legacy session came back with: its HTTP status, and its JSON-RPC answer when 200. */
export interface SessionAnswer {
  status: number;
  answer?: { result?: Record<string, unknown>; error?: Record<string, unknown> };
}

/** Request `method` in legacy session `session` on `server`: its status, and its answer (a stream's last event). */
export async function askInSession(
  server: Pick<Server, "fetch">,
  session: string,
  method: string,
  params: Record<string, unknown> = {},
): Promise<SessionAnswer> {
  const response = await server.fetch(inSession(session, { jsonrpc: "2.0", id: 1, method, params }));
  if (response.status !== 200) {
    await response.body?.cancel();
    return { status: response.status };
  }
  const answer = response.headers.get("content-type")?.startsWith("text/event-stream")
    ? messageOf((await new EventReader(response).rest()).at(-1))
    : ((await response.json()) as Record<string, unknown>);
  return { status: 200, answer };
}

/** The answer to a request of a 2025 session that ended while it ran (DELETE, eviction), word for word. */
export const SESSION_ENDED =
  "Session ended: the session was closed (deleted, or evicted for a newer one) while this request was in progress, and the request was cancelled; send initialize to start a new session, then send the request again";

/** A GET of a legacy session's stream (its standalone SSE stream, or a resume with Last-Event-ID in `headers`). */
export function sessionStream(session: string, headers: Headers = {}): Request {
  return bare("GET", {
    accept: "text/event-stream",
    "mcp-session-id": session,
    "mcp-protocol-version": "2025-11-25",
    ...headers,
  });
}

export interface SseEvent {
  id?: string;
  event?: string;
  retry?: number;
  data: string;
}

/** The JSON-RPC message an event carries. */
export function messageOf(event: SseEvent | undefined): Record<string, unknown> {
  expect(event).toBeDefined();
  return JSON.parse(event!.data) as Record<string, unknown>;
}

/** Reads the events of an SSE body one at a time, each wait bounded. */
export class EventReader {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  readonly #decoder = new TextDecoder();
  #buffer = "";
  #ended = false;

  constructor(response: Response) {
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    this.#reader = response.body!.getReader();
  }

  /** The next event, or undefined once the stream has ended; fails after `timeoutMs` of silence. */
  async next(timeoutMs = 2000): Promise<SseEvent | undefined> {
    for (;;) {
      const end = this.#buffer.indexOf("\n\n");
      if (end !== -1) {
        const frame = this.#buffer.slice(0, end);
        this.#buffer = this.#buffer.slice(end + 2);
        return parseEvent(frame);
      }
      if (this.#ended) return undefined;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no SSE event within ${timeoutMs} ms`)), timeoutMs);
      });
      const { done, value } = await Promise.race([this.#reader.read(), timeout]).finally(() => clearTimeout(timer));
      if (done) this.#ended = true;
      else this.#buffer += this.#decoder.decode(value, { stream: true });
    }
  }

  /**
   * Reads the priming event, which every stream of a 2025-11-25 session starts with, a resumed one
   * included: it carries where the client would resume from (2025-11-25 "Resumability and Redelivery").
   */
  async primed(id: string, retry = 1000): Promise<this> {
    expect(await this.next()).toEqual({ id, retry, data: "" });
    return this;
  }

  /** Every event until the stream ends. */
  async rest(timeoutMs = 2000): Promise<SseEvent[]> {
    const events: SseEvent[] = [];
    for (let event = await this.next(timeoutMs); event; event = await this.next(timeoutMs)) events.push(event);
    return events;
  }

  /** Goes away, as a client dropping the connection does. */
  async cancel(): Promise<void> {
    await this.#reader.cancel();
  }
}

function parseEvent(frame: string): SseEvent {
  const event: SseEvent = { data: "" };
  const data: string[] = [];
  for (const line of frame.split("\n")) {
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (field === "data") data.push(value);
    else if (field === "id") event.id = value;
    else if (field === "event") event.event = value;
    else if (field === "retry") event.retry = Number(value);
  }
  event.data = data.join("\n");
  return event;
}

/** A promise with its resolver, for waiting on what a handler does. */
export function signal<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

/** The message `call` failed with, taken as soon as it fails (no rejection goes unhandled meanwhile). */
export function failure(call: Promise<unknown>): Promise<string> {
  return call.then(
    () => "answered",
    (error: Error) => error.message,
  );
}

/**
 * `attempt`'s answer once it is not 404, or its last after `tries` attempts 20 ms apart: what one
 * instance writes reaches the shared history a moment later, so another instance finds it then.
 */
export async function onceFound<T extends { status: number }>(attempt: () => Promise<T>, tries = 100): Promise<T> {
  let answer = await attempt();
  for (let tried = 1; answer.status === 404 && tried <= tries; tried++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    answer = await attempt();
  }
  return answer;
}

/** Waits for `promise`, failing after `timeoutMs`. */
export async function within<T>(promise: Promise<T>, timeoutMs = 2000, what = "the event"): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not happen within ${timeoutMs} ms`)), timeoutMs);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Counts the listeners `target.subscribe` adds from now on, less those whose unsubscribe function
 * ran: how many are live (a registry, a shared state's bus).
 */
export function liveListeners<Listener>(target: { subscribe(listener: Listener): () => void }): () => number {
  const subscribe = target.subscribe.bind(target);
  let live = 0;
  target.subscribe = (listener) => {
    const unsubscribe = subscribe(listener);
    live++;
    let done = false;
    return () => {
      if (!done) live--;
      done = true;
      unsubscribe();
    };
  };
  return () => live;
}
