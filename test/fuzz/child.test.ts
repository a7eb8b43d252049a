/**
 * One bounded fuzz run against a real child process over its stdin/stdout: a few hundred fuzzed
 * lines, cut into chunks, then a well-formed call. The child writes only JSON-RPC lines, answers
 * the call, and exits 0 when stdin ends. FUZZ_RUNS scales the number of lines.
 */
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { Child, call, checkLine, killChildren } from "../hardening-helpers.js";
import { chunks, line, RUNS } from "./inputs.js";

afterAll(killChildren);

describe("fuzz: stdio child process", () => {
  it("answers per spec, writes only protocol lines, and exits 0 at the end of stdin", async () => {
    const count = Math.max(100, RUNS);
    const lines = fc.sample(line, { numRuns: count, seed: Number(process.env.FUZZ_SEED ?? 7) });
    const child = new Child({ HARDEN_GRACE: "2000" });
    const parts = chunks({ lines, cuts: [0.3, 0.7], crlf: false, lastNewline: true });
    for (const part of parts) child.write(part);
    child.write("\n");
    child.send(call("sentinel", "echo", { s: "after the fuzz" }));
    const answer = await child.response("sentinel", 20_000);
    expect(answer.result).toMatchObject({ content: [{ text: "after the fuzz" }] });
    child.process.stdin.end();
    expect(await child.exited).toEqual({ code: 0, signal: null });
    for (const text of child.lines) checkLine(text);
    expect(child.partial).toBe("");
    console.log(
      `[fuzz] stdio child process: ${count} lines in ${parts.length} chunks, ${child.lines.length} lines written`,
    );
  }, 60_000);
});
