/**
 * A small MCP client over a server's Web handler (`server.fetch`): the requests a real client sends
 * over Streamable HTTP, in a 2025-11-25 session (initialize, then `Mcp-Session-Id` on every
 * request), through the server's whole HTTP handling, without a port. It reads SSE answers as they
 * stream, so the caller sees progress and log notifications as they come and can answer the
 * server's requests (elicitation) on the same session (2025-11-25 "Transports": the server may send
 * requests and notifications on the POST's stream before the response).
 */
import type { Server } from "../index.js";
import { DEFAULT_TIMEOUT_MS, Deadline, TimedOut } from "./deadline.js";

const VERSION = "2025-11-25";
const URL_ = "http://localhost/mcp";
/** At most this many SSE events are read for one request: a bound on a server that never answers. */
const MAX_EVENTS = 100_000;

export interface JsonRpcError {
  code: number;
  message: string;
  data?: unknown;
}

/** The server answered with a JSON-RPC error (or no answer at all, as code 0). */
export class RpcError extends Error {
  readonly code: number;
  readonly data: unknown;
  /** The HTTP status it came with: 401 when the server wants a (valid) bearer token. */
  readonly status: number;
  constructor(error: JsonRpcError, status: number) {
    super(error.message);
    this.code = error.code;
    this.data = error.data;
    this.status = status;
  }
}

export interface Handlers {
  /** A `notifications/*` message that came with the request's stream. */
  onNotification?(method: string, params: Record<string, unknown>): void;
  /** A request of the server's (`elicitation/create`, …): its result, or a thrown JsonRpcError-like. */
  onRequest?(method: string, params: Record<string, unknown>): Promise<unknown>;
}

export interface ClientOptions {
  capabilities?: Record<string, unknown>;
  /** A bearer token sent with every request, for servers with `auth`. */
  token?: string;
  /** How long to wait for each answer, in milliseconds (`--timeout`); DEFAULT_TIMEOUT_MS by default. */
  timeoutMs?: number;
}

/** One request's wait: the caller's handlers, and the deadline its answer must come by. */
interface Waiting {
  readonly handlers: Handlers;
  readonly deadline: Deadline;
}

type Message = {
  id?: string | number;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: JsonRpcError;
};

export class Client {
  readonly #server: Pick<Server, "fetch">;
  readonly #token: string | undefined;
  readonly #timeoutMs: number;
  #session: string | undefined;
  #nextId = 1;
  /** The `initialize` result: serverInfo, capabilities, instructions. */
  initialized: Record<string, unknown> = {};

  private constructor(server: Pick<Server, "fetch">, options: ClientOptions) {
    this.#server = server;
    this.#token = options.token;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  /** Opens a session: `initialize`, then `notifications/initialized`. */
  static async open(server: Pick<Server, "fetch">, options: ClientOptions = {}): Promise<Client> {
    const client = new Client(server, options);
    const clientInfo = { name: "picomcp-cli", version: "1.0.0" };
    const params = { protocolVersion: VERSION, capabilities: options.capabilities ?? {}, clientInfo };
    client.initialized = await client.request("initialize", params);
    await client.#sendAndDrop(client.#message({ jsonrpc: "2.0", method: "notifications/initialized" }));
    return client;
  }

  get serverName(): string {
    const info = this.initialized.serverInfo as { name?: string } | undefined;
    return info?.name ?? "server";
  }

  /**
   * Sends one request and resolves with its result; a JSON-RPC error rejects with RpcError, and no
   * answer within the client's timeout with TimedOut, once the server was told to stop working on it.
   */
  async request(method: string, params: Record<string, unknown> = {}, handlers: Handlers = {}) {
    const id = this.#nextId++;
    const deadline = new Deadline(this.#timeoutMs);
    try {
      const response = await deadline.race(this.#post({ jsonrpc: "2.0", id, method, params }));
      const session = response.headers.get("mcp-session-id");
      if (session) this.#session = session;
      const answer = await deadline.race(this.#answer(response, id, { handlers, deadline }));
      if (answer.error) throw new RpcError(answer.error, response.status);
      return answer.result ?? {};
    } catch (thrown) {
      if (!deadline.signal.aborted) throw thrown;
      // 2025-11-25 "Cancellation": the server stops the handler (its ctx.signal aborts) and sends no
      // answer. An initialize is never cancelled: the session it would open is not used.
      if (method !== "initialize") {
        const params = { requestId: id, reason: `picomcp waited ${this.#timeoutMs} ms for the answer` };
        await this.#sendAndDrop(this.#message({ jsonrpc: "2.0", method: "notifications/cancelled", params }));
      }
      throw new TimedOut(method, this.#timeoutMs);
    } finally {
      deadline.clear();
    }
  }

  /** Every page of a list method (`tools/list`, …), its items under `key` joined. */
  async list(method: string, key: string): Promise<Record<string, unknown>[]> {
    const items: Record<string, unknown>[] = [];
    let cursor: unknown;
    for (let page = 0; page < 1000; page++) {
      const result = await this.request(method, cursor === undefined ? {} : { cursor });
      items.push(...((result[key] as Record<string, unknown>[] | undefined) ?? []));
      cursor = result.nextCursor;
      if (typeof cursor !== "string") return items;
    }
    throw new Error(`${method} was still paging after 1000 pages`);
  }

  /** Ends the session (DELETE), waiting for the server's answer no longer than for any other. */
  async close(): Promise<void> {
    if (!this.#session) return;
    await this.#sendAndDrop(new Request(URL_, { method: "DELETE", headers: this.#headers() }));
    this.#session = undefined;
  }

  #headers(): Record<string, string> {
    const headers: Record<string, string> = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    };
    if (this.#session) {
      headers["mcp-session-id"] = this.#session;
      headers["mcp-protocol-version"] = VERSION;
    }
    if (this.#token) headers.authorization = `Bearer ${this.#token}`;
    return headers;
  }

  #post(body: Record<string, unknown>): Promise<Response> {
    return this.#server.fetch(this.#message(body));
  }

  #message(body: Record<string, unknown>): Request {
    return new Request(URL_, { method: "POST", headers: this.#headers(), body: JSON.stringify(body) });
  }

  /**
   * Sends what the server answers with nothing the client needs (a notification's or a reply's 202,
   * DELETE's 200): the answer's body dropped, and waited for no longer than any answer.
   */
  async #sendAndDrop(request: Request): Promise<void> {
    const deadline = new Deadline(this.#timeoutMs);
    try {
      const response = await deadline.race(this.#server.fetch(request)).catch(() => undefined);
      await response?.body?.cancel();
    } finally {
      deadline.clear();
    }
  }

  async #answer(response: Response, id: number, { handlers, deadline }: Waiting): Promise<Message> {
    if (response.status === 401) {
      // The body says it for a model; a person at the command line needs to know which flag to pass.
      await response.body?.cancel();
      const challenge = response.headers.get("www-authenticate") ?? "no challenge";
      const why = this.#token ? "refused the token of --token" : "requires authorization: pass --token <access token>";
      return { error: { code: 0, message: `the server ${why} (it answered 401, ${challenge})` } };
    }
    const type = response.headers.get("content-type") ?? "";
    if (type.includes("text/event-stream") && response.body) {
      let events = 0;
      // Aborting the pipe cancels the server's stream: nothing is left reading it after the deadline.
      const text = response.body.pipeThrough(new TextDecoderStream(), { signal: deadline.signal });
      for await (const message of readEvents(text)) {
        if (++events > MAX_EVENTS) break;
        // Leaving the loop cancels the rest of the stream.
        if (message.id === id && (message.result || message.error)) return message;
        await this.#handle(message, { handlers, deadline });
      }
      return { error: { code: 0, message: "the server's stream ended without an answer" } };
    }
    if (type.includes("json")) return (await response.json()) as Message;
    const text = await response.text();
    return { error: { code: 0, message: `HTTP ${response.status}${text ? `: ${text.slice(0, 200)}` : ""}` } };
  }

  async #handle(message: Message, { handlers, deadline }: Waiting): Promise<void> {
    if (!message.method) return;
    if (message.id === undefined) {
      handlers.onNotification?.(message.method, message.params ?? {});
      return;
    }
    let reply: Record<string, unknown>;
    try {
      if (!handlers.onRequest) throw { code: -32601, message: `picomcp cannot answer ${message.method}` };
      // The person at the terminal answering is not the server being slow.
      deadline.pause();
      reply = {
        result: await handlers.onRequest(message.method, message.params ?? {}).finally(() => deadline.resume()),
      };
    } catch (thrown) {
      const error = thrown as Partial<JsonRpcError>;
      reply = { error: { code: error.code ?? -32603, message: error.message ?? String(thrown) } };
    }
    await this.#sendAndDrop(this.#message({ jsonrpc: "2.0", id: message.id, ...reply }));
  }
}

/** The JSON messages of an SSE stream, as each event completes (WHATWG "Server-sent events"). */
async function* readEvents(text: ReadableStream<string>): AsyncGenerator<Message> {
  let buffer = "";
  for await (const chunk of lineFeeds(text)) {
    buffer += chunk;
    let end = buffer.indexOf("\n\n");
    while (end !== -1) {
      const event = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = event
        .split("\n")
        .filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(line.startsWith("data: ") ? 6 : 5))
        .join("\n");
      if (data) yield JSON.parse(data) as Message;
      end = buffer.indexOf("\n\n");
    }
  }
}

/**
 * The stream's text with each line end (CRLF, LF or CR: WHATWG "Server-sent events" §9.2.5) as LF.
 * A CR that ends a chunk waits for the next one: followed by LF, the two are one line end, which a
 * server's writes may split between chunks.
 */
async function* lineFeeds(text: ReadableStream<string>): AsyncGenerator<string> {
  let held = "";
  for await (const chunk of text as unknown as AsyncIterable<string>) {
    const joined = held + chunk;
    held = joined.endsWith("\r") ? "\r" : "";
    yield joined.slice(0, joined.length - held.length).replace(/\r\n?/g, "\n");
  }
  if (held) yield "\n";
}

/**
 * The name in the server's initialize answer, from an in-process session without a token; undefined
 * when the server refuses that session for want of one (401: its auth requires a token).
 */
export async function serverName(server: Pick<Server, "fetch">): Promise<string | undefined> {
  try {
    const session = await Client.open(server);
    await session.close();
    return session.serverName;
  } catch (thrown) {
    if (thrown instanceof RpcError && thrown.status === 401) return undefined;
    throw thrown;
  }
}
