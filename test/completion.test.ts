import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Registry } from "../src/core/registry.js";
import type { Schema } from "../src/core/schema.js";
import { compilePrompt, type PromptConfig } from "../src/prompts/prompts.js";
import { compileResource, type ResourceConfig } from "../src/resources/resources.js";
import { addPrompt, addResource, core, SERVER_INFO, SERVER_INFO_META } from "./core-helpers.js";

const LANGUAGES = ["Go", "JavaScript", "Java", "Julia", "Python", "TypeScript"];
const OWNERS: Record<string, string[]> = { acme: ["app", "api", "docs"], globex: ["apollo", "site"] };
/** "1" to "150": more than one answer may hold. */
const NUMBERS = Array.from({ length: 150 }, (_, index) => String(index + 1));

/** What each completer was called with. */
const calls: { value: string; arguments: Record<string, string> }[] = [];

function registry(): Registry {
  const registry = new Registry(SERVER_INFO);
  addPrompt(
    registry,
    compilePrompt(
      "code_review",
      prompt({
        input: z.object({ language: z.string(), code: z.string() }),
        complete: {
          language: (value, context) => {
            calls.push({ value, arguments: context.arguments });
            return LANGUAGES;
          },
        },
        get: () => "",
      }),
    ),
  );
  addResource(
    registry,
    compileResource(
      "repos://{owner}/{repo}",
      resource<"repos://{owner}/{repo}">({
        read: () => "",
        complete: {
          owner: () => Object.keys(OWNERS),
          // The repositories depend on the owner chosen before.
          repo: async (value, context) => {
            calls.push({ value, arguments: context.arguments });
            return OWNERS[context.arguments.owner ?? ""] ?? [];
          },
        },
      }),
    ),
  );
  addResource(
    registry,
    compileResource("numbers://{n}", resource<"numbers://{n}">({ read: () => "", complete: { n: () => NUMBERS } })),
  );
  addResource(
    registry,
    compileResource(
      "exact://{n}",
      resource<"exact://{n}">({ read: () => "", complete: { n: () => NUMBERS.slice(0, 100) } }),
    ),
  );
  addResource(registry, compileResource("docs://readme", { read: () => "" }));
  return registry;
}

/** Typed configs, widened for the registry, as `server.prompt` and `server.resource` type them. */
function prompt<I extends Schema | undefined>(config: PromptConfig<I>): PromptConfig<Schema | undefined> {
  return config as unknown as PromptConfig<Schema | undefined>;
}

function resource<Uri extends string>(config: ResourceConfig<Uri>): ResourceConfig<string> {
  return config as unknown as ResourceConfig<string>;
}

/** A string inside `depth` arrays. */
function nested(depth: number): unknown {
  let value: unknown = "code_review";
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

const promptRef = { type: "ref/prompt", name: "code_review" };
const repoRef = { type: "ref/resource", uri: "repos://{owner}/{repo}" };

describe("completion/complete", () => {
  it("completes a prompt argument, keeping the values that start with what was typed, ignoring case", async () => {
    const { legacy } = await core(registry());
    const result = await legacy("completion/complete", { ref: promptRef, argument: { name: "language", value: "j" } });
    expect(result?.result).toEqual({
      completion: { values: ["JavaScript", "Java", "Julia"], total: 3, hasMore: false },
    });
  });

  it("offers every value for an empty prefix, and none when nothing starts with it", async () => {
    const { legacy } = await core(registry());
    const all = await legacy("completion/complete", { ref: promptRef, argument: { name: "language", value: "" } });
    expect(all?.result).toEqual({ completion: { values: LANGUAGES, total: 6, hasMore: false } });
    const none = await legacy("completion/complete", { ref: promptRef, argument: { name: "language", value: "Rust" } });
    expect(none?.result).toEqual({ completion: { values: [], total: 0, hasMore: false } });
  });

  it("completes a template variable with the arguments resolved so far", async () => {
    const { legacy } = await core(registry());
    calls.length = 0;
    const result = await legacy("completion/complete", {
      ref: repoRef,
      argument: { name: "repo", value: "a" },
      context: { arguments: { owner: "acme" } },
    });
    expect(result?.result).toEqual({ completion: { values: ["app", "api"], total: 2, hasMore: false } });
    expect(calls).toEqual([{ value: "a", arguments: { owner: "acme" } }]);
    const other = await legacy("completion/complete", {
      ref: repoRef,
      argument: { name: "repo", value: "a" },
      context: { arguments: { owner: "globex" } },
    });
    expect(other?.result).toEqual({ completion: { values: ["apollo"], total: 1, hasMore: false } });
  });

  it("passes empty context arguments when the client sends none", async () => {
    const { legacy } = await core(registry());
    calls.length = 0;
    await legacy("completion/complete", { ref: promptRef, argument: { name: "language", value: "P" } });
    expect(calls).toEqual([{ value: "P", arguments: {} }]);
  });

  it("sends at most 100 values, with the total and hasMore", async () => {
    const { legacy } = await core(registry());
    const ref = { type: "ref/resource", uri: "numbers://{n}" };
    const capped = (await legacy("completion/complete", { ref, argument: { name: "n", value: "" } }))?.result as {
      completion: { values: string[]; total: number; hasMore: boolean };
    };
    expect(capped.completion.values).toEqual(NUMBERS.slice(0, 100));
    expect(capped.completion).toMatchObject({ total: 150, hasMore: true });
    // "1", "10"…"19", "100"…"150": 62 values, under the cap.
    const narrowed = (await legacy("completion/complete", { ref, argument: { name: "n", value: "1" } }))?.result as {
      completion: { values: string[]; total: number; hasMore: boolean };
    };
    expect(narrowed.completion.values).toHaveLength(62);
    expect(narrowed.completion).toMatchObject({ total: 62, hasMore: false });
    const exact = await legacy("completion/complete", {
      ref: { type: "ref/resource", uri: "exact://{n}" },
      argument: { name: "n", value: "" },
    });
    expect(exact?.result).toMatchObject({ completion: { total: 100, hasMore: false } });
  });

  it("answers an argument without a completer with no values", async () => {
    const { legacy } = await core(registry());
    const result = await legacy("completion/complete", { ref: promptRef, argument: { name: "code", value: "x" } });
    expect(result?.result).toEqual({ completion: { values: [], total: 0, hasMore: false } });
  });

  it.each([
    [
      "an unknown prompt",
      { ref: { type: "ref/prompt", name: "nope" }, argument: { name: "a", value: "" } },
      'Unknown prompt "nope". Call prompts/list to see the available prompts.',
    ],
    [
      "an unknown template",
      { ref: { type: "ref/resource", uri: "nope://{x}" }, argument: { name: "x", value: "" } },
      'Unknown resource template "nope://{x}". Call resources/templates/list to see them.',
    ],
    [
      "a fixed resource, which has no variables",
      { ref: { type: "ref/resource", uri: "docs://readme" }, argument: { name: "x", value: "" } },
      'Unknown resource template "docs://readme". Call resources/templates/list to see them.',
    ],
    [
      "another kind of ref",
      { ref: { type: "ref/tool", name: "x" }, argument: { name: "x", value: "" } },
      'completion/complete ref.type must be "ref/prompt" or "ref/resource"',
    ],
    // Was: -32603 "Maximum call stack size exceeded", quoting the nested value back with JSON.stringify.
    [
      "a ref.name nested 100,000 arrays deep",
      { ref: { type: "ref/prompt", name: nested(100_000) }, argument: { name: "a", value: "" } },
      "completion/complete ref.name must be a string, the name of a prompt",
    ],
    [
      "a ref.uri nested 100,000 arrays deep",
      { ref: { type: "ref/resource", uri: nested(100_000) }, argument: { name: "a", value: "" } },
      "completion/complete ref.uri must be a string, the URI template of a resource",
    ],
    [
      "a missing argument",
      { ref: promptRef },
      "completion/complete needs params.ref and params.argument { name, value }",
    ],
    [
      "a value that is not a string",
      { ref: promptRef, argument: { name: "language", value: 3 } },
      "completion/complete needs params.ref and params.argument { name, value }",
    ],
  ])("answers %s with -32602", async (_label, params, message) => {
    const { legacy } = await core(registry());
    expect((await legacy("completion/complete", params))?.error).toEqual({ code: -32602, message });
  });

  it("works the same in 2026-07-28, without cache hints", async () => {
    const { modern } = await core(registry());
    const result = await modern("completion/complete", { ref: promptRef, argument: { name: "language", value: "ty" } });
    expect(result?.result).toEqual({
      completion: { values: ["TypeScript"], total: 1, hasMore: false },
      resultType: "complete",
      _meta: SERVER_INFO_META,
    });
  });

  it("is -32601 on a server with neither prompts nor resources", async () => {
    const { legacy } = await core(new Registry(SERVER_INFO));
    expect(
      (await legacy("completion/complete", { ref: promptRef, argument: { name: "a", value: "" } }))?.error,
    ).toMatchObject({ code: -32601 });
  });
});
