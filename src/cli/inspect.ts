/**
 * What a client sees of a server: its `initialize` answer and every page of `tools/list`,
 * `resources/list`, `resources/templates/list` and `prompts/list`, as the server sends them
 * (a list the server does not declare a capability for is empty).
 */
import type { Server } from "../index.js";
import { Client, type ClientOptions } from "./client.js";

type Item = Record<string, unknown>;

export interface Listing {
  server: Item;
  protocolVersion: unknown;
  instructions?: unknown;
  tools: Item[];
  resources: Item[];
  resourceTemplates: Item[];
  prompts: Item[];
}

export async function inspect(
  server: Pick<Server, "fetch">,
  options: Pick<ClientOptions, "token" | "timeoutMs"> = {},
): Promise<Listing> {
  const client = await Client.open(server, options);
  try {
    const capabilities = (client.initialized.capabilities ?? {}) as Item;
    const has = (capability: string) => capabilities[capability] !== undefined;
    const listing: Listing = {
      server: (client.initialized.serverInfo ?? {}) as Item,
      protocolVersion: client.initialized.protocolVersion,
      tools: has("tools") ? await client.list("tools/list", "tools") : [],
      resources: has("resources") ? await client.list("resources/list", "resources") : [],
      resourceTemplates: has("resources") ? await client.list("resources/templates/list", "resourceTemplates") : [],
      prompts: has("prompts") ? await client.list("prompts/list", "prompts") : [],
    };
    if (client.initialized.instructions !== undefined) listing.instructions = client.initialized.instructions;
    return listing;
  } finally {
    await client.close();
  }
}

/**
 * An estimate of the tokens a JSON value costs a model: its compact JSON's characters divided by
 * four, rounded up. Tokenizers differ (a model's count of the same JSON may be some tens of per cent
 * off), so this is a figure to compare plans by, not a bill.
 */
export function estimateTokens(value: unknown): number {
  return Math.ceil(JSON.stringify(value).length / 4);
}
