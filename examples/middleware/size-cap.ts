/**
 * A result-size cap for tool calls: a result whose JSON is larger than `maxBytes` is replaced by a
 * tool error that tells the model how large it was and how to ask for less, instead of filling its
 * context window (or the client's message limit) with it. Cutting the result short would hand the
 * model data it might take for complete; an error it can act on is honest.
 */
import type { MiddlewareFor } from "picomcp";

const encoder = new TextEncoder();

/** For `server.use("tools/call", capResultSize(100_000))`, or `{ tool }` for one tool. */
export function capResultSize(maxBytes: number): MiddlewareFor<"tools/call"> {
  return async ({ params }, next) => {
    const result = await next();
    const bytes = sizeOf(result);
    // A result JSON cannot carry (a BigInt, a cycle) goes on as it is: the server answers it with the
    // tool error that says why, which a throw from here would turn into a JSON-RPC error.
    if (bytes === undefined || bytes <= maxBytes) return result;
    return {
      content: [
        {
          type: "text",
          text: `Tool "${params.name}" produced ${bytes} bytes, more than this server sends (${maxBytes} bytes). Call it again asking for less: a narrower query, a smaller limit, or one page at a time.`,
        },
      ],
      isError: true,
    };
  };
}

/** The size of `result` as JSON, in bytes; undefined when JSON cannot carry it. */
function sizeOf(result: unknown): number | undefined {
  try {
    return encoder.encode(JSON.stringify(result)).byteLength;
  } catch {
    return undefined;
  }
}
