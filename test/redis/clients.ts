/** Raw clients of both eras for test/redis/scaling.test.ts, each request through the cluster's proxy. */
import { expect } from "vitest";
import { META } from "../../src/core/types.js";
import { EventReader } from "../http-helpers.js";

const BOTH = "application/json, text/event-stream";
export const TASKS = "io.modelcontextprotocol/tasks";

type Body = Record<string, unknown>;
let nextId = 1;

/** Every request gives up after this long: a wait in these tests is bounded (a failure guard, not a timing). */
const REQUEST_TIMEOUT_MS = 8000;

function bounded(): AbortSignal {
  return AbortSignal.timeout(REQUEST_TIMEOUT_MS);
}

/** `x-to`: the instance the proxy sends the request to; otherwise round robin. */
function pin(to: number | undefined): Record<string, string> {
  return to === undefined ? {} : { "x-to": String(to) };
}

/** A 2025-11-25 client with a session. */
export class LegacyClient {
  readonly #url: string;
  session = "";

  constructor(url: string) {
    this.#url = url;
  }

  headers(extra: Record<string, string> = {}): Record<string, string> {
    const headers: Record<string, string> = { "content-type": "application/json", accept: BOTH, ...extra };
    if (this.session) {
      headers["mcp-session-id"] = this.session;
      headers["mcp-protocol-version"] = "2025-11-25";
    }
    return headers;
  }

  /** initialize and notifications/initialized; answers the instance that opened the session. */
  async open(to?: number): Promise<string> {
    const response = await this.post(
      "initialize",
      {
        protocolVersion: "2025-11-25",
        capabilities: { elicitation: { form: {}, url: {} } },
        clientInfo: { name: "scaling-test", version: "1" },
      },
      to,
    );
    expect(response.status).toBe(200);
    this.session = response.headers.get("mcp-session-id")!;
    await response.text();
    const initialized = await this.notify("notifications/initialized");
    expect(initialized.status).toBe(202);
    return response.headers.get("x-instance")!;
  }

  post(method: string, params: Body = {}, to?: number, id: number = nextId++): Promise<Response> {
    return fetch(this.#url, {
      method: "POST",
      signal: bounded(),
      headers: this.headers(pin(to)),
      body: JSON.stringify({ jsonrpc: "2.0", id, method, params }),
    });
  }

  notify(method: string, params: Body = {}, to?: number): Promise<Response> {
    return fetch(this.#url, {
      method: "POST",
      signal: bounded(),
      headers: this.headers(pin(to)),
      body: JSON.stringify({ jsonrpc: "2.0", method, params }),
    });
  }

  /** Sends the client's answer to a question of the server. */
  answer(id: unknown, result: Body, to?: number): Promise<Response> {
    return fetch(this.#url, {
      method: "POST",
      signal: bounded(),
      headers: this.headers(pin(to)),
      body: JSON.stringify({ jsonrpc: "2.0", id, result }),
    });
  }

  /** A request that must answer with JSON: its result, and the instance that answered. */
  async result(method: string, params: Body = {}, to?: number): Promise<{ result: Body; instance: string }> {
    const response = await fetch(this.#url, {
      method: "POST",
      signal: bounded(),
      headers: this.headers({ ...pin(to), accept: "application/json, text/event-stream" }),
      body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params }),
    });
    expect(response.status, `${method} on instance ${response.headers.get("x-instance")}`).toBe(200);
    const text = await response.text();
    const body = (
      response.headers.get("content-type")?.startsWith("text/event-stream")
        ? JSON.parse(
            text
              .split("\n")
              .filter((line) => line.startsWith("data: ") && line.length > 6)
              .pop()!
              .slice(6),
          )
        : JSON.parse(text)
    ) as { result?: Body; error?: unknown };
    expect(body.error, `${method} failed`).toBeUndefined();
    return { result: body.result!, instance: response.headers.get("x-instance")! };
  }

  /** The GET stream, or a resume of a stream after `lastEventId`. */
  async get(to?: number, lastEventId?: string): Promise<Response> {
    const headers = this.headers({ ...pin(to), accept: "text/event-stream" });
    delete headers["content-type"];
    if (lastEventId !== undefined) headers["last-event-id"] = lastEventId;
    // A stream: bounded by its reader's waits (EventReader.next), not by this request.
    return fetch(this.#url, { method: "GET", headers });
  }

  delete(to?: number): Promise<Response> {
    return fetch(this.#url, { method: "DELETE", signal: bounded(), headers: this.headers(pin(to)) });
  }
}

/** A 2026-07-28 client: every request on its own, with the `_meta` envelope and the routing headers. */
export class ModernClient {
  readonly #url: string;

  constructor(url: string) {
    this.#url = url;
  }

  async send(method: string, params: Body = {}, to?: number): Promise<Response> {
    const named = method.startsWith("tasks/") ? params.taskId : (params.name ?? params.uri);
    const headers: Record<string, string> = {
      "content-type": "application/json",
      accept: BOTH,
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": method,
      ...(typeof named === "string" ? { "mcp-name": named } : {}),
      ...pin(to),
    };
    const _meta = {
      [META.protocolVersion]: "2026-07-28",
      [META.clientCapabilities]: { elicitation: {}, extensions: { [TASKS]: {} } },
    };
    // A listen request is a stream, bounded by its reader's waits; anything else by REQUEST_TIMEOUT_MS.
    const signal = method === "subscriptions/listen" ? undefined : bounded();
    return fetch(this.#url, {
      method: "POST",
      signal,
      headers,
      body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params: { ...params, _meta } }),
    });
  }

  async reply(method: string, params: Body = {}, to?: number): Promise<{ result?: Body; error?: Body }> {
    const response = await this.send(method, params, to);
    expect(response.status, `${method}: HTTP ${response.status}`).toBe(200);
    return (await response.json()) as { result?: Body; error?: Body };
  }

  async result(method: string, params: Body = {}, to?: number): Promise<Body> {
    const reply = await this.reply(method, params, to);
    expect(reply.error, `${method} failed`).toBeUndefined();
    return reply.result!;
  }

  /** Polls tasks/get until `done` holds (bounded: a failure guard, not a timing). */
  async until(taskId: string, done: (task: Body) => boolean, to?: number): Promise<Body> {
    for (let polls = 0; polls < 300; polls++) {
      const task = await this.result("tasks/get", { taskId }, to);
      if (done(task)) return task;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`task ${taskId} never reached the status awaited`);
  }

  /** A subscriptions/listen stream, read past its acknowledgement. */
  async listen(notifications: Body, to?: number): Promise<EventReader> {
    const response = await this.send("subscriptions/listen", { notifications }, to);
    expect(response.status).toBe(200);
    const reader = new EventReader(response);
    const ack = JSON.parse((await reader.next(5000))!.data) as { method: string };
    expect(ack.method).toBe("notifications/subscriptions/acknowledged");
    return reader;
  }
}
