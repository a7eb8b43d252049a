/**
 * The bare server: JSON-RPC answered by hand, no library. It is the practical limit a library can
 * approach. With `validation` it also checks arguments and the structured result with zod, as a
 * library would ("bare + zod" in DESIGN §5). Both eras: a request whose `_meta` names a protocol
 * version gets the 2026-07-28 result fields.
 */
import type * as Schemas from "./schemas.js";
import { add, SERVER_INFO, stats } from "./workload.js";

type Json = Record<string, unknown>;
type Validation = typeof Schemas & { toJSONSchema: (schema: unknown) => Json };

const PROTOCOL = "io.modelcontextprotocol/protocolVersion";
const SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo";
const CAPABILITIES = { tools: {} };

const number = { type: "number" };
const HAND_WRITTEN = {
  add: { type: "object", properties: { a: number, b: number }, required: ["a", "b"] },
  echo: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  stats: {
    type: "object",
    properties: { values: { type: "array", items: number, minItems: 1 } },
    required: ["values"],
  },
  statsOutput: {
    type: "object",
    properties: { sum: number, count: { type: "integer" }, mean: number },
    required: ["sum", "count", "mean"],
  },
};

export class Bare {
  readonly #zod: Validation | undefined;
  readonly #tools: Json[];

  constructor(zod?: Validation) {
    this.#zod = zod;
    const schemas = zod
      ? {
          add: zod.toJSONSchema(zod.addInput),
          echo: zod.toJSONSchema(zod.echoInput),
          stats: zod.toJSONSchema(zod.statsInput),
          statsOutput: zod.toJSONSchema(zod.statsOutput),
        }
      : HAND_WRITTEN;
    this.#tools = [
      { name: "add", inputSchema: schemas.add },
      { name: "echo", inputSchema: schemas.echo },
      { name: "stats", inputSchema: schemas.stats, outputSchema: schemas.statsOutput },
    ];
  }

  /** The response to one message, or undefined for a notification. */
  handle(message: Json): Json | undefined {
    const { id, method } = message;
    if (id === undefined) return undefined;
    const params = (message.params ?? {}) as Json;
    const meta = params._meta as Json | undefined;
    let result: Json;
    switch (method) {
      case "initialize":
        result = { protocolVersion: params.protocolVersion, capabilities: CAPABILITIES, serverInfo: SERVER_INFO };
        break;
      case "server/discover":
        result = { supportedVersions: ["2026-07-28"], capabilities: CAPABILITIES, ttlMs: 0, cacheScope: "private" };
        break;
      case "ping":
        result = {};
        break;
      case "tools/list":
        result = { tools: this.#tools };
        break;
      case "tools/call":
        result = this.#call(params.name, (params.arguments ?? {}) as Json);
        break;
      default:
        return { jsonrpc: "2.0", id, error: { code: -32601, message: `Method not found: ${method}` } };
    }
    if (meta?.[PROTOCOL] !== undefined) {
      result.resultType = "complete";
      result._meta = { [SERVER_INFO_KEY]: SERVER_INFO };
    }
    return { jsonrpc: "2.0", id, result };
  }

  #call(name: unknown, args: Json): Json {
    try {
      return this.#run(name, args);
    } catch (thrown) {
      // A zod error: the tool error a library would send.
      return { content: [{ type: "text", text: String(thrown) }], isError: true };
    }
  }

  #run(name: unknown, args: Json): Json {
    const zod = this.#zod;
    switch (name) {
      case "add": {
        const { a, b } = zod ? zod.addInput.parse(args) : (args as { a: number; b: number });
        return { content: [{ type: "text", text: add(a, b) }] };
      }
      case "echo": {
        const { text } = zod ? zod.echoInput.parse(args) : (args as { text: string });
        return { content: [{ type: "text", text }] };
      }
      case "stats": {
        const { values } = zod ? zod.statsInput.parse(args) : (args as { values: number[] });
        const value = zod ? zod.statsOutput.parse(stats(values)) : stats(values);
        return { content: [{ type: "text", text: JSON.stringify(value) }], structuredContent: value };
      }
      default:
        return { content: [{ type: "text", text: `Unknown tool ${String(name)}` }], isError: true };
    }
  }
}

/** Loads zod only when asked, so the bare server's cold start does not include it. */
export async function bare(): Promise<Bare> {
  if (!process.argv.includes("--zod")) return new Bare();
  const [schemas, { z }] = await Promise.all([import("./schemas.js"), import("zod")]);
  return new Bare({ ...schemas, toJSONSchema: (schema) => z.toJSONSchema(schema as never) as Json });
}
