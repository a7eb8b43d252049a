/**
 * What the HTTP fuzzers read of a reply: the JSON texts it carries, its body or the data of its SSE
 * events, read for at most `ms` (a stream may stay open: what came by then is what is checked).
 */

/** How a failed read of an SSE body counts: the end of the body, or a failure of the test. */
export type ReadErrors = "end" | "throw";

export async function replyTexts(
  response: Response,
  { ms, readErrors }: { ms: number; readErrors: ReadErrors },
): Promise<string[]> {
  const type = response.headers.get("content-type") ?? "";
  if (!type.startsWith("text/event-stream")) {
    const text = await response.text();
    return text === "" ? [] : [text];
  }
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  const deadline = Date.now() + ms;
  for (;;) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), Math.max(0, deadline - Date.now()));
    });
    const read = readErrors === "end" ? reader.read().catch(() => ({ done: true, value: undefined })) : reader.read();
    const next = await Promise.race([read, timeout]);
    clearTimeout(timer);
    if (next === "timeout") {
      await reader.cancel();
      break;
    }
    if (next.done) break;
    text += decoder.decode(next.value, { stream: true });
  }
  return text
    .split("\n")
    .filter((each) => each.startsWith("data:"))
    .map((each) => each.slice(5).trim())
    .filter((data) => data !== "");
}
