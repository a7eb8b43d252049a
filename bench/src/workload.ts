/**
 * The client side of the workload: call i is `add`, `echo` or `stats` in turn, with arguments that
 * depend on i, and the exact answer it must get back. A wrong or missing answer fails the run, so a
 * broken server cannot look fast.
 */
export type Era = "legacy" | "modern";

export const LEGACY_VERSION = "2025-11-25";
export const MODERN_VERSION = "2026-07-28";

const CLIENT_INFO = { name: "picomcp-bench", version: "1.0.0" };
/** The 2026-07-28 per-request envelope (`_meta`), the same on every modern request. */
export const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": MODERN_VERSION,
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": CLIENT_INFO,
};

interface Message {
  id?: unknown;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

export interface Call {
  tool: string;
  /** The JSON-RPC params. */
  params: Record<string, unknown>;
  /** Undefined when the answer is right, else what is wrong with it. */
  check(message: Message): string | undefined;
}

export function call(i: number, era: Era): Call {
  const meta = era === "modern" ? { _meta: ENVELOPE } : {};
  switch (i % 3) {
    case 0: {
      const a = i;
      const b = 2 * i + 1;
      return {
        tool: "add",
        params: { name: "add", arguments: { a, b }, ...meta },
        check: (message) => text(message, String(a + b), era),
      };
    }
    case 1: {
      const expected = `hello ${i} ✓`;
      return {
        tool: "echo",
        params: { name: "echo", arguments: { text: expected }, ...meta },
        check: (message) => text(message, expected, era),
      };
    }
    default: {
      const values = [i, i + 1, i + 2];
      const expected = { sum: 3 * i + 3, count: 3, mean: i + 1 };
      return {
        tool: "stats",
        params: { name: "stats", arguments: { values }, ...meta },
        check: (message) => {
          const wrong = complete(message, era);
          if (wrong) return wrong;
          const result = message.result!;
          const structured = result.structuredContent as Record<string, unknown> | undefined;
          if (
            structured?.sum !== expected.sum ||
            structured.count !== expected.count ||
            structured.mean !== expected.mean
          )
            return `structuredContent should be ${JSON.stringify(expected)}`;
          const content = result.content as { type: string; text: string }[] | undefined;
          const copy = content?.[0]?.type === "text" ? JSON.parse(content[0].text) : undefined;
          if (copy?.sum !== expected.sum) return "the text copy should carry the structured value";
          return undefined;
        },
      };
    }
  }
}

function complete(message: Message, era: Era): string | undefined {
  if (message.error) return `error ${message.error.code}: ${message.error.message}`;
  const result = message.result;
  if (!result) return "no result";
  if (result.isError) return `isError: ${JSON.stringify(result.content)}`;
  if (era === "modern" && result.resultType !== "complete") return `resultType should be "complete"`;
  return undefined;
}

function text(message: Message, expected: string, era: Era): string | undefined {
  const wrong = complete(message, era);
  if (wrong) return wrong;
  const content = message.result!.content as { type: string; text: string }[] | undefined;
  if (content?.length !== 1 || content[0]?.type !== "text" || content[0].text !== expected)
    return `content should be the text ${JSON.stringify(expected)}`;
  return undefined;
}

/** The opening request of a connection: `initialize` (legacy) or `server/discover` (2026-07-28). */
export function opening(era: Era): { method: string; params: Record<string, unknown> } {
  return era === "legacy"
    ? { method: "initialize", params: { protocolVersion: LEGACY_VERSION, capabilities: {}, clientInfo: CLIENT_INFO } }
    : { method: "server/discover", params: { _meta: ENVELOPE } };
}

export function checkOpening(message: Message, era: Era): string | undefined {
  if (message.error) return `error ${message.error.code}: ${message.error.message}`;
  const result = message.result;
  if (era === "legacy")
    return result?.protocolVersion === LEGACY_VERSION ? undefined : `initialize should answer ${LEGACY_VERSION}`;
  const versions = result?.supportedVersions as string[] | undefined;
  return versions?.includes(MODERN_VERSION) ? undefined : `server/discover should list ${MODERN_VERSION}`;
}

/** `tools/list` must list the three tools, `stats` with its output schema. */
export function checkTools(message: Message): string | undefined {
  const tools = message.result?.tools as { name: string; outputSchema?: unknown }[] | undefined;
  const names = tools?.map((tool) => tool.name).sort();
  if (names?.join() !== "add,echo,stats") return `tools/list should list add, echo, stats: ${JSON.stringify(message)}`;
  if (!tools?.find((tool) => tool.name === "stats")?.outputSchema) return "stats should have an outputSchema";
  return undefined;
}
