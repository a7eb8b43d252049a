/**
 * The server the official conformance suite (@modelcontextprotocol/conformance) tests: everything its
 * server scenarios call that picomcp can already do, under the names the scenarios use, built with
 * the public API (one internal cast, for SEP-1699 polling, says why).
 *
 * Run it alone with `node --import tsx test/conformance/fixture.ts [port]` and point the CLI at it.
 * What it departs from on purpose is listed in the baselines. The tools of the Tasks extension's
 * scenarios (`slow_compute`, `failing_job`, ...) opt in with `task` (docs/tasks.md).
 *
 * The tools that ask the client are written once with `ctx.elicit` / `ctx.sample` / `ctx.roots`:
 * the 2025 runs get real server-to-client requests over the session, the 2026 run gets
 * `input_required` results, from the same handlers.
 */
import { pathToFileURL } from "node:url";
import { z } from "zod";
import { audio, ErrorCode, embed, image, McpError, pico, type Schema, text, user } from "../../src/index.js";

/** A 1×1 red PNG and a tiny WAV header, as in the suite's own example server. */
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
const WAV = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";

const LOG_LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"] as const;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits `ms`, or less when `signal` aborts (then it rejects with the signal's reason). */
function sleepUnless(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });
}

/** The raw JSON Schema of `json_schema_2020_12_tool`, which the suite expects back verbatim (SEP-1613, SEP-2106). */
export const JSON_SCHEMA_2020_12 = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  $defs: {
    address: {
      $anchor: "addressDef",
      type: "object",
      properties: { street: { type: "string" }, city: { type: "string" } },
    },
  },
  properties: {
    name: { type: "string" },
    address: { $ref: "#/$defs/address" },
    contactMethod: { type: "string", enum: ["phone", "email"] },
    phone: { type: "string" },
    email: { type: "string" },
  },
  allOf: [{ anyOf: [{ required: ["phone"] }, { required: ["email"] }] }],
  if: { properties: { contactMethod: { const: "phone" } }, required: ["contactMethod"] },
  // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword (if/then/else); this object is never awaited
  then: { required: ["phone"] },
  else: { required: ["email"] },
  additionalProperties: false,
};

interface Contact {
  name?: string;
  address?: { street?: string; city?: string };
  contactMethod?: "phone" | "email";
  phone?: string;
  email?: string;
}

/**
 * A hand-made Standard Schema whose JSON Schema is the raw one above, passed through untouched, and
 * whose validation follows it: what a user does to publish a schema no library generates.
 */
const contactSchema: Schema<Contact> = {
  "~standard": {
    version: 1,
    vendor: "conformance-fixture",
    jsonSchema: { input: () => JSON_SCHEMA_2020_12, output: () => JSON_SCHEMA_2020_12 },
    validate(value) {
      const issues: { message: string; path?: string[] }[] = [];
      if (typeof value !== "object" || value === null || Array.isArray(value)) {
        return { issues: [{ message: "Expected an object" }] };
      }
      const input = value as Record<string, unknown>;
      const known = JSON_SCHEMA_2020_12.properties;
      for (const key of Object.keys(input)) {
        if (!(key in known)) issues.push({ message: "Unknown property", path: [key] });
      }
      for (const key of ["name", "phone", "email"]) {
        if (key in input && typeof input[key] !== "string") issues.push({ message: "Expected a string", path: [key] });
      }
      if ("contactMethod" in input && input.contactMethod !== "phone" && input.contactMethod !== "email") {
        issues.push({ message: 'Expected "phone" or "email"', path: ["contactMethod"] });
      }
      const address = input.address;
      if (address !== undefined) {
        if (typeof address !== "object" || address === null || Array.isArray(address)) {
          issues.push({ message: "Expected an object", path: ["address"] });
        } else {
          for (const [key, part] of Object.entries(address)) {
            if (typeof part !== "string") issues.push({ message: "Expected a string", path: ["address", key] });
          }
        }
      }
      const needs = input.contactMethod === "phone" ? "phone" : "email";
      if (!(needs in input))
        issues.push({ message: `Required when contactMethod is ${input.contactMethod ?? "not phone"}`, path: [needs] });
      return issues.length > 0 ? { issues } : { value: input as Contact };
    },
  },
};

/** tools-call-elicitation (conformance.md §4.15): two required strings, each with a description. */
const USER_INFO_SCHEMA = {
  type: "object",
  properties: {
    username: { type: "string", description: "User's response" },
    email: { type: "string", description: "User's email address" },
  },
  required: ["username", "email"],
};

/** elicitation-sep1330-enums (§4.20): titled and legacy enums, which no schema library generates. */
const SEP1330_SCHEMA = {
  type: "object",
  properties: {
    untitledSingle: { type: "string", description: "Pick one", enum: ["option1", "option2", "option3"] },
    titledSingle: {
      type: "string",
      description: "Pick one",
      oneOf: [
        { const: "value1", title: "First Option" },
        { const: "value2", title: "Second Option" },
        { const: "value3", title: "Third Option" },
      ],
    },
    legacyEnum: {
      type: "string",
      description: "Pick one",
      enum: ["opt1", "opt2", "opt3"],
      enumNames: ["Option One", "Option Two", "Option Three"],
    },
    untitledMulti: {
      type: "array",
      description: "Pick some",
      minItems: 1,
      maxItems: 3,
      items: { type: "string", enum: ["option1", "option2", "option3"] },
    },
    titledMulti: {
      type: "array",
      description: "Pick some",
      minItems: 1,
      maxItems: 3,
      items: {
        anyOf: [
          { const: "value1", title: "First Choice" },
          { const: "value2", title: "Second Choice" },
          { const: "value3", title: "Third Choice" },
        ],
      },
    },
  },
  required: [],
};

/** elicitation-sep1034-defaults (§4.17): a default on every primitive type, which zod expresses. */
const SEP1034_SCHEMA = z.object({
  name: z.string().default("John Doe").describe("Your name"),
  age: z.number().int().default(30).describe("Your age"),
  score: z.number().default(95.5).describe("Your score"),
  status: z.enum(["active", "inactive", "pending"]).default("active").describe("Your status"),
  verified: z.boolean().default(true).describe("Verified?"),
});

const NAME = z.object({ name: z.string() });

/** The text of a sampling answer, however the client shaped its content. */
function textOf(answer: { content: unknown }): string {
  const blocks = Array.isArray(answer.content) ? answer.content : [answer.content];
  return blocks.map((block) => (block as { text?: string }).text ?? "").join("");
}

/** Makes a fresh fixture server (each suite run gets its own, since some calls change the tool list). */
export function conformanceFixture() {
  let added = 0;
  const server = pico({ name: "picomcp-conformance-fixture", version: "1.0.0" })
    // First in tools/list: http-header-validation calls the first tool with no arguments.
    .tool("test_simple_text", {
      description: "Returns a simple text response",
      run: () => "This is a simple text response for testing.",
    })
    .tool("test_image_content", {
      description: "Returns a 1x1 PNG image",
      run: () => image(PNG, "image/png"),
    })
    .tool("test_audio_content", {
      description: "Returns a short WAV audio clip",
      run: () => audio(WAV, "audio/wav"),
    })
    .tool("test_embedded_resource", {
      description: "Returns an embedded text resource",
      run: () => embed("test://embedded-resource", "This is an embedded resource content.", { mimeType: "text/plain" }),
    })
    .tool("test_multiple_content_types", {
      description: "Returns text, an image and an embedded JSON resource",
      run: () => [
        text("Multiple content types test:"),
        image(PNG, "image/png"),
        embed("test://mixed-content-resource", JSON.stringify({ test: "data", value: 123 }), {
          mimeType: "application/json",
        }),
      ],
    })
    .tool("test_error_handling", {
      description: "Always fails, to test tool errors",
      run: () => {
        throw new Error("This tool intentionally returns an error for testing");
      },
    })
    .tool("test_tool_with_progress", {
      description: "Reports progress 0, 50 and 100 of 100, then returns",
      run: async (_args, ctx) => {
        ctx.progress(0, 100, "Starting");
        await sleep(50);
        ctx.progress(50, 100, "Halfway");
        await sleep(50);
        ctx.progress(100, 100, "Done");
        return "Progress test completed";
      },
    })
    .tool("test_tool_with_logging", {
      description: "Logs three info messages while it runs, then returns",
      run: async (_args, ctx) => {
        ctx.log.info("Tool execution started");
        await sleep(50);
        ctx.log.info("Tool processing data");
        await sleep(50);
        ctx.log.info("Tool execution completed");
        return "Logging test completed";
      },
    })
    .tool("test_logging_tool", {
      description: "Logs one message at each level, filtered by the level the client asked for",
      run: (_args, ctx) => {
        for (const level of LOG_LEVELS) ctx.log[level](`A ${level} message`);
        return "Logging tool completed";
      },
    })
    .tool("test_reconnection", {
      description: "Closes its SSE stream mid-call so the client resumes with Last-Event-ID (SEP-1699)",
      run: async (_args, ctx) => {
        ctx.closeStream();
        await sleep(100);
        return "Reconnection test completed";
      },
    })
    .tool("json_schema_2020_12_tool", {
      description: "Tool with JSON Schema 2020-12 features",
      input: contactSchema,
      run: (contact) => `Contact received for ${contact.name ?? "someone"}`,
    })
    .tool("test_missing_capability", {
      description: "Asks the client's model; without the sampling capability the call fails with -32021",
      run: async (_args, ctx) => {
        const answer = await ctx.sample("Say hello", { key: "hello" });
        return `The client's model said: ${textOf(answer)}`;
      },
    })
    .tool("test_streaming_elicitation", {
      description:
        "Asks the user for their name (an input_required result in 2026-07-28, never a request on the stream)",
      run: async (_args, ctx) => {
        const answer = await ctx.elicit("What is your name?", NAME, { key: "user_name" });
        return answer.action === "accept" ? `Hello, ${answer.content.name}!` : `No name (${answer.action})`;
      },
    })
    .tool("test_sampling", {
      description: "Asks the client's model to answer a prompt (sampling)",
      input: z.object({ prompt: z.string().describe("The prompt to send") }),
      run: async ({ prompt }, ctx) => {
        const answer = await ctx.sample({
          messages: [{ role: "user", content: { type: "text", text: prompt } }],
          maxTokens: 100,
        });
        return `LLM response: ${textOf(answer)}`;
      },
    })
    .tool("test_elicitation", {
      description: "Asks the user for a username and an email address (form elicitation)",
      input: z.object({ message: z.string().describe("The message to show the user") }),
      run: async ({ message }, ctx) => {
        const answer = await ctx.elicit(message, USER_INFO_SCHEMA);
        const content = answer.action === "accept" ? JSON.stringify(answer.content) : "none";
        return `User response: action=${answer.action}, content=${content}`;
      },
    })
    .tool("test_elicitation_sep1034_defaults", {
      description: "Asks for values that all have defaults (SEP-1034)",
      run: async (_args, ctx) => {
        const answer = await ctx.elicit("Please review your profile", SEP1034_SCHEMA);
        const content = answer.action === "accept" ? JSON.stringify(answer.content) : "none";
        return `Elicitation completed: action=${answer.action}, content=${content}`;
      },
    })
    .tool("test_elicitation_sep1330_enums", {
      description: "Asks for choices in every enum form (SEP-1330)",
      run: async (_args, ctx) => {
        const answer = await ctx.elicit("Please make your choices", SEP1330_SCHEMA);
        const content = answer.action === "accept" ? JSON.stringify(answer.content) : "none";
        return `Elicitation completed: action=${answer.action}, content=${content}`;
      },
    })
    .tool("test_input_required_result_elicitation", {
      description: "Asks the user's name (key user_name, which a client may answer up front), then greets them",
      run: async (_args, ctx) => {
        // A name is safe to take unasked: a client that knows the key saves the round trip.
        const answer = await ctx.elicit("What is your name?", NAME, { key: "user_name", upFront: true });
        return answer.action === "accept" ? `Hello, ${answer.content.name}!` : `No name (${answer.action})`;
      },
    })
    .tool("test_input_required_result_sampling", {
      description: "Asks the client's model a question (key capital_question)",
      run: async (_args, ctx) => {
        const answer = await ctx.sample(
          {
            messages: [{ role: "user", content: { type: "text", text: "What is the capital of France?" } }],
            maxTokens: 100,
          },
          { key: "capital_question" },
        );
        return `The model answered: ${textOf(answer)}`;
      },
    })
    .tool("test_input_required_result_list_roots", {
      description: "Asks for the client's roots (key client_roots)",
      run: async (_args, ctx) => {
        const roots = await ctx.roots({ key: "client_roots" });
        return `Roots: ${roots.map((root) => root.uri).join(", ") || "none"}`;
      },
    })
    .tool("test_input_required_result_request_state", {
      description: "Asks for a confirmation (key confirm); the answer comes back with the sealed requestState",
      run: async (_args, ctx) => {
        const answer = await ctx.elicit("Please confirm", z.object({ ok: z.boolean() }), { key: "confirm" });
        return `state-ok: ${answer.action === "accept" && answer.content.ok ? "confirmed" : "not confirmed"}`;
      },
    })
    .tool("test_input_required_result_multiple_inputs", {
      description: "Asks three questions at once: a name, a greeting from the model and the roots",
      run: async (_args, ctx) => {
        const [name, greeting, roots] = await Promise.all([
          ctx.elicit("What is your name?", NAME, { key: "user_name" }),
          ctx.sample(
            { messages: [{ role: "user", content: { type: "text", text: "Generate a greeting" } }], maxTokens: 50 },
            { key: "greeting" },
          ),
          ctx.roots({ key: "client_roots" }),
        ]);
        const who = name.action === "accept" ? name.content.name : "someone";
        return `${textOf(greeting)} ${who} (${roots.length} roots)`;
      },
    })
    .tool("test_input_required_result_multi_round", {
      description: "Asks two questions, one round each (keys step1, step2)",
      run: async (_args, ctx) => {
        const name = await ctx.elicit("Step 1: What is your name?", NAME, { key: "step1" });
        const color = await ctx.elicit("Step 2: What is your favorite color?", z.object({ color: z.string() }), {
          key: "step2",
        });
        const who = name.action === "accept" ? name.content.name : "someone";
        return `${who} likes ${color.action === "accept" ? color.content.color : "no color"}`;
      },
    })
    .tool("test_input_required_result_tampered_state", {
      description: "Asks for a confirmation; a requestState that was altered is rejected with -32602",
      run: async (_args, ctx) => {
        const answer = await ctx.elicit("Please confirm", z.object({ ok: z.boolean() }), { key: "confirm" });
        return `Confirmed: ${answer.action === "accept" && answer.content.ok}`;
      },
    })
    .tool("test_input_required_result_capabilities", {
      description: "Asks the model for a summary, and the user for a title only when the client can elicit",
      run: async (_args, ctx) => {
        const summary = ctx.sample("Summarise the ticket", { key: "summary" });
        const title = ctx.client.capabilities.elicitation
          ? ctx.elicit("Title?", z.object({ title: z.string() }), { key: "title" })
          : undefined;
        const [answer, named] = await Promise.all([summary, title]);
        return `${named?.action === "accept" ? `${named.content.title}: ` : ""}${textOf(answer)}`;
      },
    })
    .tool("test_x_mcp_header", {
      description: "Echoes a region sent both as an argument and as the Mcp-Param-Region header (SEP-2243)",
      input: z.object({ region: z.string().meta({ "x-mcp-header": "Region" }).describe("A region name") }),
      run: ({ region }) => `Region: ${region}`,
    })
    .tool("test_trigger_tool_change", {
      description: "Registers a new tool, so the tool list changes",
      run: () => {
        const name = `dynamic_tool_${++added}`;
        server.tool(name, { description: "Added at run time by test_trigger_tool_change", run: () => name });
        return `Registered ${name}`;
      },
    })
    .tool("test_trigger_prompt_change", {
      description: "Registers a new prompt, so the prompt list changes",
      run: () => {
        const name = `dynamic_prompt_${++added}`;
        server.prompt(name, { description: "Added at run time by test_trigger_prompt_change", get: () => name });
        return `Registered ${name}`;
      },
    })
    .resource("test://static-text", {
      name: "static-text",
      description: "A static text resource",
      mimeType: "text/plain",
      read: () => "This is the content of the static text resource.",
    })
    .resource("test://static-binary", {
      name: "static-binary",
      description: "A static binary resource (a 1x1 PNG)",
      mimeType: "image/png",
      read: ({ uri }) => ({ uri, mimeType: "image/png", blob: PNG }),
    })
    .resource("test://watched-resource", {
      name: "watched-resource",
      description: "A resource clients can subscribe to",
      mimeType: "text/plain",
      read: () => "Watched resource content",
    })
    .resource("test://template/{id}/data", {
      name: "template-data",
      description: "Data for one id",
      mimeType: "application/json",
      read: ({ id }) => JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
    })
    .prompt("test_simple_prompt", {
      description: "A prompt without arguments",
      get: () => "This is a simple prompt for testing.",
    })
    .prompt("test_prompt_with_arguments", {
      description: "A prompt with two required arguments",
      input: z.object({ arg1: z.string().describe("First argument"), arg2: z.string().describe("Second argument") }),
      complete: { arg1: () => ["test", "testing", "tested"] },
      get: ({ arg1, arg2 }) => `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`,
    })
    .prompt("test_prompt_with_embedded_resource", {
      description: "A prompt that embeds the resource it is given",
      input: z.object({ resourceUri: z.string().describe("URI of the resource to embed") }),
      get: ({ resourceUri }) => [
        user(embed(resourceUri, "Embedded resource content for testing.", { mimeType: "text/plain" })),
        user("Please process the embedded resource above."),
      ],
    })
    // The Tasks extension (SEP-2663) scenarios: `greet` answers at once, the others run as tasks.
    .tool("greet", {
      description: "Greets someone by name, at once (never a task)",
      input: z.object({ name: z.string() }),
      run: ({ name }) => `Hello, ${name}!`,
    })
    .tool("slow_compute", {
      description: "Sleeps `seconds` seconds (0: none), then answers; stops when cancelled",
      input: z.object({ seconds: z.number().min(0), label: z.string().optional() }),
      task: "optional",
      run: async ({ seconds, label }, ctx) => {
        await sleepUnless(seconds * 1000, ctx.signal);
        return `Computed ${label ?? "result"} after ${seconds}s`;
      },
    })
    .tool("failing_job", {
      description: "Fails with a tool error after about a second",
      task: "required",
      run: async (_args, ctx) => {
        await sleepUnless(1000, ctx.signal);
        throw new Error("The job failed: its input could not be processed");
      },
    })
    .tool("protocol_error_job", {
      description: "Ends with a JSON-RPC error (a protocol-level failure)",
      task: "optional",
      run: () => {
        throw new McpError(ErrorCode.InternalError, "The job crashed: internal failure");
      },
    })
    .tool("confirm_delete", {
      description: "Asks for confirmation, then deletes the file (pretends to)",
      input: z.object({ filename: z.string() }),
      task: "optional",
      run: async ({ filename }, ctx) =>
        (await ctx.confirm(`Delete ${filename}?`)) ? `Deleted ${filename}` : `Kept ${filename}`,
    })
    .tool("multi_input", {
      description: "Asks two questions at once, then answers with both",
      task: "optional",
      run: async (_args, ctx) => {
        const [name, confirmed] = await Promise.all([
          ctx.elicit("Your name?", z.object({ name: z.string() }).loose(), { key: "name" }),
          ctx.confirm("Go ahead?", { key: "confirm" }),
        ]);
        return `name=${name.action === "accept" ? name.content.name : "none"}, confirmed=${confirmed}`;
      },
    })
    .tool("test_tool_with_task", {
      description: "Asks the user's name in the request (key user_name), then greets them from a task",
      task: { support: "required", askFirst: true },
      run: async (_args, ctx) => {
        const answer = await ctx.elicit("What is your name?", NAME, { key: "user_name" });
        await sleepUnless(200, ctx.signal);
        return answer.action === "accept" ? `Hello, ${answer.content.name}!` : `No name (${answer.action})`;
      },
    })
    .prompt("test_input_required_result_prompt", {
      description: "Asks the user what context the prompt should use (key user_context)",
      get: async (_args, ctx) => {
        const answer = await ctx.elicit("What context should the prompt use?", z.object({ context: z.string() }), {
          key: "user_context",
        });
        return `Write with this context in mind: ${answer.action === "accept" ? answer.content.context : "none"}`;
      },
    })
    .prompt("test_prompt_with_image", {
      description: "A prompt with an image",
      get: () => [user(image(PNG, "image/png")), user("Please analyze the image above.")],
    });
  return server;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const listening = await conformanceFixture().serve({ port: Number(process.argv[2] ?? 3000) });
  console.log(`picomcp conformance fixture at ${listening.url}`);
}
