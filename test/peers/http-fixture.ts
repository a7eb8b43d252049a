/**
 * What the HTTP peer tests share: an in-process picomcp server with the tools they call, and a
 * `fetch` for the SDK client transports that records every exchange on the wire and can cut a
 * response stream the way a dropped connection does.
 */
import { z } from "zod";
import type { RequestContext } from "../../src/core/context.js";
import { McpError, pico } from "../../src/index.js";
import type { HttpOptions } from "../../src/transports/http/options.js";

export const SEED_VALIDATION_ERROR =
  'Invalid arguments for tool "search_issues":\nlimit: Too big: expected number to be <=50';

export const PRICE = { sku: "A-1", cents: 1299, currency: "EUR" };

/** Sends `notifications/progress` for the request, if the client asked for progress. */
function progress(ctx: unknown, value: number, total: number): void {
  const request = ctx as RequestContext;
  const progressToken = request.meta?.progressToken;
  if (progressToken === undefined) return;
  request.emit?.({
    jsonrpc: "2.0",
    method: "notifications/progress",
    params: { progressToken, progress: value, total, message: `step ${value} of ${total}` },
  });
}

/** A promise the test resolves from outside: lets a tool wait until the test has done its part. */
export class Gate {
  #open!: () => void;
  readonly opened = new Promise<void>((resolve) => {
    this.#open = resolve;
  });
  open(): void {
    this.#open();
  }
}

export function makeServer(http?: HttpOptions) {
  const gates = { drop: new Gate() };
  /** What `wait_for_cancel` saw: how often it started, and the reasons its signal aborted with. */
  const cancels = { started: 0, reasons: [] as string[] };
  const server = pico({ name: "http-peer", version: "1.0.0", title: "HTTP peer", instructions: "Test only.", http })
    .tool("search_issues", {
      title: "Search issues",
      description: "Search open GitHub issues in a repository. Use it before filing a new issue.",
      input: z.object({
        repo: z.string().describe("owner/name"),
        query: z.string(),
        limit: z.number().int().max(50).default(10),
      }),
      annotations: { readOnlyHint: true, openWorldHint: true },
      run: ({ repo, query, limit }) => `${repo} ${query} ${limit}`,
    })
    .tool("get_price", {
      input: z.object({ sku: z.string() }),
      output: z.object({ sku: z.string(), cents: z.number().int(), currency: z.literal("EUR") }),
      // The extra field must never reach the client: the parsed value is what is sent.
      run: ({ sku }) => ({ sku, cents: 1299, currency: "EUR" as const, secret: "internal" }),
    })
    .tool("forbidden", {
      run: () => {
        throw new McpError(-32001, "Not authorised for this workspace", { workspace: "acme" });
      },
    })
    .tool("count", {
      description: "Reports progress at each step, then answers.",
      input: z.object({ steps: z.number().int().min(1).max(10) }),
      run: async ({ steps }, ctx) => {
        for (let step = 1; step <= steps; step++) {
          progress(ctx, step, steps);
          await new Promise((resolve) => setImmediate(resolve));
        }
        return `counted to ${steps}`;
      },
    })
    .tool("poll", {
      description: "Reports progress, closes its SSE stream (SEP-1699 polling), then answers while the client is away.",
      run: (_args, ctx) => {
        progress(ctx, 1, 2);
        ctx.closeStream();
        return "finished while the client was away";
      },
    })
    .tool("drop", {
      description: "Reports progress, then answers only once the test opens its gate.",
      run: async (_args, ctx) => {
        progress(ctx, 1, 2);
        await gates.drop.opened;
        return "finished after the connection dropped";
      },
    })
    .tool("wait_for_cancel", {
      description: "Never finishes on its own: returns only once its signal aborts, so a response would be a bug.",
      run: (_args, { signal }) =>
        new Promise<string>((resolve) => {
          cancels.started++;
          signal.addEventListener("abort", () => {
            cancels.reasons.push((signal.reason as Error).name);
            resolve("finished after the cancel: this must never be sent");
          });
        }),
    })
    .tool("add_tool", {
      description: "Registers a new tool at run time.",
      input: z.object({ name: z.string() }),
      run: ({ name }) => {
        server.tool(name, { description: `Added at run time as ${name}.`, run: () => `hello from ${name}` });
        return `added ${name}`;
      },
    });
  return { server, gates, cancels };
}

/** One HTTP exchange as the client transport saw it. */
export interface Recorded {
  readonly method: string;
  readonly headers: Headers;
  /** The request body, parsed (POST only). */
  readonly body: unknown;
  readonly status: number;
  readonly contentType: string | null;
  /** The response body as read so far by the client. */
  text: string;
  /** True once the body has ended, or the client cancelled it. */
  done: boolean;
  /** Ends the response stream with a network error and drops the connection, as a lost network does. */
  cut(): void;
  /**
   * Ends the response stream with a network error on the client's side only: its connection stays
   * open and is no longer read, as one that died without closing (a laptop asleep, a proxy that lost
   * it) looks to the server.
   */
  vanish(): void;
}

/** A `fetch` for the SDK transports that records each exchange and passes the response on unchanged. */
export function recordingFetch() {
  const exchanges: Recorded[] = [];
  const fetchLike = async (url: string | URL, init?: RequestInit): Promise<Response> => {
    const response = await fetch(url, init);
    const record: Recorded = {
      method: init?.method ?? "GET",
      headers: new Headers(init?.headers),
      body: typeof init?.body === "string" ? JSON.parse(init.body) : undefined,
      status: response.status,
      contentType: response.headers.get("content-type"),
      text: "",
      done: false,
      cut: () => {},
      vanish: () => {},
    };
    exchanges.push(record);
    if (!response.body) {
      record.done = true;
      return response;
    }
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    /** The client saw the connection die (`cut`, `vanish`): what still arrives is not its to see. */
    let lost = false;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        record.vanish = () => {
          lost = true;
          controller.error(new TypeError("terminated: the network connection was lost"));
        };
        record.cut = () => {
          record.vanish();
          void reader.cancel().catch(() => {});
        };
      },
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (lost) return;
          if (done) {
            record.done = true;
            controller.close();
            return;
          }
          record.text += decoder.decode(value, { stream: true });
          controller.enqueue(value);
        } catch (error) {
          controller.error(error);
        }
      },
      cancel: (reason) => {
        record.done = true;
        return reader.cancel(reason);
      },
    });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
  return { fetch: fetchLike, exchanges };
}

/** The `id:` fields of an SSE body, in order. */
export function eventIds(text: string): string[] {
  return [...text.matchAll(/^id: ?(.*)$/gm)].map((match) => match[1]!);
}

/** The JSON-RPC messages in an SSE body, in order. */
export function sseMessages(text: string): Record<string, unknown>[] {
  return [...text.matchAll(/^data: ?(\S.*)$/gm)].map((match) => JSON.parse(match[1]!));
}
