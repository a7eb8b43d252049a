/**
 * One bounded fuzz run against a real child process over its stdin/stdout: a few hundred fuzzed
 * lines, cut into chunks, then a well-formed call. The child writes only JSON-RPC lines, answers
 * the call, and exits 0 when stdin ends. FUZZ_RUNS scales the number of lines.
 */
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { Child, call, checkLine, killChildren } from "../hardening-helpers.js";
import { chunks, expectedAnswers, line, RUNS } from "./inputs.js";

afterAll(killChildren);

describe("fuzz: stdio child process", () => {
  for (const [name, script, env] of [
    ["the hardening fixture", "test/fixtures/hardening-server.ts", { HARDEN_GRACE: "2000" }],
    ["the server with every layer", "test/fixtures/fuzz-server.ts", {}],
  ] as const) {
    it(`answers per spec, writes only protocol lines, and exits 0 at the end of stdin: ${name}`, async () => {
      const count = Math.max(100, RUNS);
      const lines = fc.sample(line, { numRuns: count, seed: Number(process.env.FUZZ_SEED ?? 7) });
      const child = new Child(env, script);
      const parts = chunks({ lines, cuts: [0.3, 0.7], crlf: false, lastNewline: true });
      for (const part of parts) child.write(part);
      child.write("\n");
      child.send(call("sentinel", "echo", { s: "after the fuzz" }));
      const answer = await child.response("sentinel", 20_000);
      expect(answer.result).toMatchObject({ content: [{ text: "after the fuzz" }] });
      child.process.stdin.end();
      expect(await child.exited).toEqual({ code: 0, signal: null });
      const messages = child.lines.map(checkLine);
      // Every request with a readable id is answered as often as the oracle says (inputs.ts), before the child exits.
      const answered = new Map<unknown, number>();
      for (const message of messages) {
        if (!("method" in message) && message.id !== undefined) {
          answered.set(message.id, (answered.get(message.id) ?? 0) + 1);
        }
      }
      for (const [id, [min, max]] of expectedAnswers(lines)) {
        const got = answered.get(id) ?? 0;
        expect(got >= min && got <= max, `${got} answers to id ${JSON.stringify(id)}, expected ${min}-${max}`).toBe(
          true,
        );
      }
      expect(child.partial).toBe("");
      console.log(
        `[fuzz] stdio child process, ${name}: ${count} lines in ${parts.length} chunks, ${child.lines.length} lines written`,
      );
    }, 60_000);
  }
});
