import type { Implementation, ServerCapabilities } from "./protocol/types.js";
import type { Tool } from "./tools.js";
import type { HttpOptions } from "./transports/http/handler.js";

/** Something about the registry changed; connections turn these into list_changed notifications. */
export type RegistryEvent = { type: "tools/list_changed" };

export interface ServerOptions extends Implementation {
  /** Guidance for the model about how to use this server; clients may put it in the system prompt. */
  instructions?: string;
  /** Page size of list results; lists are not paginated unless this is set. */
  pageSize?: number;
  /** Streamable HTTP settings for `fetch` (and defaults for `serve({ port })`). */
  http?: HttpOptions;
}

/**
 * Everything a server exposes, built once and shared by every connection and request.
 * Maps keep registration order, which is the order lists come out in.
 */
export class Registry {
  readonly info: Implementation;
  readonly instructions: string | undefined;
  readonly pageSize: number;
  readonly tools = new Map<string, Tool>();
  readonly #listeners = new Set<(event: RegistryEvent) => void>();

  constructor(options: Omit<ServerOptions, "http">) {
    const { instructions, pageSize, ...info } = options;
    if (typeof info.name !== "string" || typeof info.version !== "string") {
      throw new TypeError('pico() needs a name and a version, e.g. pico({ name: "github", version: "1.0.0" }).');
    }
    if (pageSize !== undefined && !(Number.isInteger(pageSize) && pageSize > 0)) {
      throw new TypeError(`pageSize must be a positive integer; got ${pageSize}.`);
    }
    this.info = info;
    this.instructions = instructions;
    this.pageSize = pageSize ?? Number.POSITIVE_INFINITY;
  }

  addTool(tool: Tool): void {
    if (this.tools.has(tool.name)) {
      throw new TypeError(`Tool "${tool.name}" is already registered; tool names must be unique.`);
    }
    this.tools.set(tool.name, tool);
    this.#emit({ type: "tools/list_changed" });
  }

  /** Only what is implemented is advertised (2025-11-25 "Capabilities"). */
  capabilities(): ServerCapabilities {
    const capabilities: ServerCapabilities = {};
    if (this.tools.size > 0) capabilities.tools = { listChanged: true };
    return capabilities;
  }

  subscribe(listener: (event: RegistryEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #emit(event: RegistryEvent): void {
    for (const listener of this.#listeners) listener(event);
  }
}
