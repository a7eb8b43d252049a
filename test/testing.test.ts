/**
 * `picomcp/testing`: the contract kit (representative, generated-invalid and unauthorized inputs,
 * with `run` watched), the in-process HTTP harness in both eras, and the test token issuer.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { pico, type Schema } from "../src/index.js";
import { invalidInputs } from "../src/testing/invalid.js";
import { ContractError, contract, harness, testIssuer } from "../src/testing.js";
import { within } from "./http-helpers.js";

function tracker(runs: string[] = []) {
  const record = (name: string) => runs.push(name);
  return pico({
    name: "tracker",
    version: "1.0.0",
    auth: { authorizationServers: ["https://auth.test"], resource: "https://mcp.example.com/mcp" },
  })
    .tool("list_items", {
      description: "List the items of the current user, newest first.",
      input: z.object({
        status: z.enum(["open", "done"]).optional().describe("Only items with this status."),
        limit: z.number().int().min(1).max(50).default(10).describe("At most this many items."),
      }),
      output: z.object({ items: z.array(z.object({ id: z.string(), title: z.string() })) }),
      auth: { scopes: ["items:read"] },
      annotations: { readOnlyHint: true, openWorldHint: false },
      run: ({ limit }) => {
        record("list_items");
        return { items: [{ id: "it_1", title: "First", secretNote: "hidden" }].slice(0, limit) } as never;
      },
    })
    .tool("close_item", {
      description: "Mark an item as done.",
      input: z.object({
        id: z.string().min(3).describe("The item id, from list_items."),
        note: z.string().max(20).optional(),
      }),
      auth: { scopes: ["items:read", "items:write"], roles: ["member"] },
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
      run: ({ id }) => {
        record("close_item");
        return `closed ${id}`;
      },
    })
    .tool("own_report", {
      description: "A report about one user, for that user only.",
      input: z.object({ user: z.string().describe("The user's id.") }),
      auth: (identity, { user }) => identity.subject === user,
      run: ({ user }) => {
        record("own_report");
        return `report for ${user}`;
      },
    })
    .tool("ping", { description: "Checks the server is up.", auth: "public", run: () => "pong" });
}

describe("contract()", () => {
  it("runs representative, generated invalid and unauthorized calls, and counts them", async () => {
    const runs: string[] = [];
    const report = await contract(tracker(runs), {
      list_items: { valid: [{}, { status: "done", limit: 5 }] },
      close_item: {
        valid: [{ id: "it_1" }],
        invalid: [{ args: { id: "it_1", note: 7 }, field: "note" }],
      },
      own_report: {
        valid: [{ user: "ada" }],
        as: { subject: "ada" },
        unauthorized: [{ args: { user: "bob" }, as: { subject: "ada" } }],
      },
      ping: { valid: [{}] },
    });
    expect(report.tools).toEqual({
      // status: wrong type, not in the enum; limit: wrong type, below 1, above 50, not an integer.
      list_items: { valid: 2, invalid: 6, unauthorized: 2 },
      // id: missing, wrong type, too short; note: wrong type, too long; plus the given one.
      close_item: { valid: 1, invalid: 6, unauthorized: 4 },
      own_report: { valid: 1, invalid: 2, unauthorized: 2 },
      ping: { valid: 1, invalid: 0, unauthorized: 0 },
    });
    expect(report).toMatchObject({ valid: 5, invalid: 14, unauthorized: 8 });
    // run executed for the representative calls only.
    expect(runs).toEqual(["list_items", "list_items", "close_item", "own_report"]);
  });

  it("reports every broken expectation at once", async () => {
    // A schema whose JSON Schema promises a maximum its validation does not enforce.
    const lax: Schema<{ n: number }> = {
      "~standard": {
        version: 1,
        vendor: "test",
        validate: (value) => ({ value: value as { n: number } }),
        jsonSchema: {
          input: () => ({ type: "object", properties: { n: { type: "number", maximum: 10 } }, required: ["n"] }),
          output: () => ({ type: "object" }),
        },
      },
    };
    const runs: number[] = [];
    const server = pico({ name: "broken", version: "1" })
      .tool("lax", { description: "Trusts its input.", input: lax, run: ({ n }) => void runs.push(n) })
      .tool("fails", { description: "Always fails.", run: () => Promise.reject(new Error("down")) })
      .tool("open", { description: "Public, though the contract says otherwise.", run: () => "ok" })
      .tool("forgotten", { description: "Has no contract.", run: () => "" });
    const error = await contract(server, {
      lax: { valid: [{ n: 1 }] },
      fails: { valid: [{}] },
      open: { valid: [{}], unauthorized: [{ as: null }] },
      missing: { valid: [{}] },
    }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ContractError);
    const failures = (error as ContractError).failures;
    expect(failures).toEqual(
      expect.arrayContaining([
        "missing: no tool of that name is registered",
        "forgotten: no contract (test it, or pass { partial: true })",
        "lax: invalid {} (n): run executed on a rejected call",
        "lax: invalid {} (n): was accepted",
        'lax: invalid {"n":11} (n): was accepted',
        "fails: valid {}: returned a tool error: down",
        "open: unauthorized anonymous: run executed on a refused call",
        "open: unauthorized anonymous: was allowed",
      ]),
    );
    // The tools were restored: nothing watches run any more.
    expect(await server.call("open")).toEqual({ content: [{ type: "text", text: "ok" }] });
  });

  it("accepts a partial plan, and checks the in-band challenge of refusals when the server has a resource", async () => {
    const report = await contract(tracker(), { ping: { valid: [{}] } }, { partial: true });
    expect(report).toMatchObject({ valid: 1, invalid: 0, unauthorized: 0 });
    const result = await tracker().call("list_items", {});
    expect(result._meta?.["mcp/www_authenticate"]).toEqual([
      'Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp", scope="items:read", error="invalid_token", error_description="Sign in to use tool \'list_items\'."',
    ]);
  });
});

/**
 * The seed's get_price (docs "Tools": structured output), with a middleware that rewrites its
 * successful results as `rewrite` says: what a server that breaks the seed's rules looks like from
 * outside. The server checks the middleware's structuredContent by the output schema and sends it
 * as parsed (middleware/structured.ts), so what reaches the kit is that check's error, or a text copy
 * that still says what the structured value no longer does.
 */
function priced(rewrite: (structured: object) => object) {
  return (
    pico({ name: "shop", version: "1.0.0" })
      .tool("get_price", {
        description: "The price of a product, in euro cents.",
        input: z.object({ sku: z.string().describe("The product's SKU.") }),
        output: z.object({ sku: z.string(), cents: z.number().int(), currency: z.literal("EUR") }),
        run: ({ sku }) => ({ sku, cents: 1299, currency: "EUR" as const }),
      })
      // Every tools/call, so its result's structuredContent is not typed from the output schema, which
      // would refuse these rewrites at compile time.
      .use("tools/call", async (_, next) => {
        const result = await next();
        if (result.isError || typeof result.structuredContent !== "object" || result.structuredContent === null) {
          return result;
        }
        const structured = rewrite(result.structuredContent);
        return { content: [{ type: "text", text: JSON.stringify(structured) }], structuredContent: structured };
      })
  );
}

describe("contract() and a server that breaks its contract", () => {
  const plan = { get_price: { valid: [{ sku: "A-1" }] } };

  it("reports a representative call whose middleware's structuredContent its output schema does not accept", async () => {
    const error = await contract(
      priced((structured) => ({ ...structured, cents: "12.99" })),
      plan,
    ).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ContractError);
    expect((error as ContractError).failures).toEqual([
      'get_price: valid {"sku":"A-1"}: threw TypeError: Middleware for "tools/call" returned a result for tool "get_price" whose structuredContent does not match its output schema:\ncents: Invalid input: expected number, received string',
    ]);
  });

  it("reports fields the output schema does not name (a leak) in the text copy, the server leaving them out of structuredContent", async () => {
    const error = await contract(
      priced((structured) => ({ ...structured, supplierCost: 800 })),
      plan,
    ).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ContractError);
    expect((error as ContractError).failures).toEqual([
      'get_price: valid {"sku":"A-1"}: structuredContent is missing, or its text copy says something else',
    ]);
  });

  it("passes the same server when its middleware keeps the result as it was", async () => {
    expect(
      await contract(
        priced((structured) => structured),
        plan,
      ),
    ).toMatchObject({ valid: 1, invalid: 2 });
  });

  it("reports a validation error that does not name the field on a line of its own, as the seed's do", async () => {
    // The seed's form is one `field: message` line per issue; this server's middleware makes them vague.
    const vague = pico({ name: "projects", version: "1.0.0" })
      .tool("get_project", {
        description: "Examine one project.",
        input: z.object({ id: z.string().describe("The project's id, from list_projects.") }),
        run: ({ id }) => `project ${id}`,
      })
      .use("tools/call", async (call, next) => {
        const result = await next();
        const first = result.content[0];
        if (!result.isError || first?.type !== "text" || !first.text.startsWith("Invalid arguments")) return result;
        const header = `Invalid arguments for tool "${call.params.name}":`;
        return { content: [{ type: "text", text: `${header}\nInvalid input: check the arguments` }], isError: true };
      });
    const error = await contract(vague, { get_project: { valid: [{ id: "prj_1" }] } }).catch(
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(ContractError);
    expect((error as ContractError).failures).toEqual([
      "get_project: invalid {} (id): the error does not name id",
      'get_project: invalid {"id":12345.5} (id): the error does not name id',
    ]);
  });

  it("reports whatever a call throws, a value without a prototype or null included, as a failure", async () => {
    const thrower = (thrown: unknown) =>
      pico({ name: "throws", version: "1.0.0" })
        .tool("lookup", { description: "Looks a word up.", auth: { scopes: ["words"] }, run: () => "found" })
        .use({ tool: "lookup" }, () => {
          throw thrown;
        });
    const failures = async (thrown: unknown) => {
      const error = await contract(thrower(thrown), { lookup: { valid: [{}] } }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ContractError);
      return (error as ContractError).failures;
    };
    expect(await failures(Object.create(null))).toEqual([
      "lookup: valid {}: threw {}",
      "lookup: unauthorized anonymous: threw {}",
      'lookup: unauthorized as {"subject":"contract-test","scopes":[],"roles":[]}: threw {}',
    ]);
    expect(await failures(null)).toEqual([
      "lookup: valid {}: threw null",
      "lookup: unauthorized anonymous: threw null",
      'lookup: unauthorized as {"subject":"contract-test","scopes":[],"roles":[]}: threw null',
    ]);
  });
});

describe("invalidInputs()", () => {
  it("makes each required field missing, each type wrong and each bound crossed", () => {
    const schema = z.toJSONSchema(
      z.object({
        name: z.string().min(2).max(4),
        when: z.iso.date().nullable(),
        tags: z.array(z.string()).min(1).max(2),
        mode: z.enum(["a", "b"]),
        score: z.number().gt(0).lt(1),
      }),
      { io: "input" },
    ) as Record<string, unknown>;
    const base = { name: "abc", when: null, tags: ["x"], mode: "a", score: 0.5 };
    const cases = invalidInputs(schema, base).map(({ field, why }) => `${field}: ${why}`);
    expect(cases).toEqual([
      "name: missing required field",
      "when: missing required field",
      "tags: missing required field",
      "mode: missing required field",
      "score: missing required field",
      "name: wrong type (number)",
      "name: shorter than 2",
      "name: longer than 4",
      "when: wrong type (number)",
      "tags: wrong type (string)",
      "tags: fewer than 1 items",
      "tags: more than 2 items",
      "mode: wrong type (number)",
      "mode: not one of a, b",
      "score: wrong type (string)",
      "score: not above 0",
      "score: not below 1",
    ]);
    for (const { args } of invalidInputs(schema, base)) expect(args).not.toEqual(base);
  });
});

describe.each(["legacy", "modern"] as const)("harness() (%s era)", (era) => {
  it("speaks MCP over server.fetch, with the session or envelope and the bearer token", async () => {
    const issuer = await testIssuer();
    const server = pico({
      name: "t",
      version: "1",
      auth: {
        verify: issuer.verify,
        resource: "http://localhost/mcp",
        authorizationServers: [issuer.issuer],
        required: true,
      },
    }).tool("whoami", { description: "Who is signed in.", run: (_args, ctx) => ctx.auth!.subject });
    const client = harness(server, { era, token: await issuer.mint({ subject: "ada" }) });
    const tools = await client.listTools();
    expect(tools.status).toBe(200);
    expect(tools.result?.tools).toHaveLength(1);
    expect((await client.callTool("whoami")).result).toMatchObject({ content: [{ text: "ada" }] });
    expect(client.sessionId === undefined).toBe(era === "modern");
    const anonymous = await client.callTool("whoami", {}, { token: null });
    expect(anonymous.status).toBe(401);
    expect(anonymous.challenge).toContain("resource_metadata=");
    const metadata = await client.get("/.well-known/oauth-protected-resource/mcp");
    expect((await metadata.json()).resource).toBe("http://localhost/mcp");
    await client.close();
  });
});

describe("harness() reading what a correct server sends", () => {
  const counter = (http?: { sessions: false }) =>
    pico({ name: "c", version: "1", ...(http ? { http } : {}) }).tool("count", {
      description: "Counts to two, reporting progress.",
      run: (_args, ctx) => {
        ctx.progress(1, 2, "half");
        return "two";
      },
    });

  it("reads an event stream that opens with its priming event (an id and empty data)", async () => {
    const client = harness(counter());
    // A progress token makes the answer a stream: the priming event, the progress, then the result.
    const answer = await client.request("tools/call", { name: "count", arguments: {}, _meta: { progressToken: 1 } });
    expect(answer.headers.get("content-type")).toContain("text/event-stream");
    expect(answer.result).toEqual({ content: [{ type: "text", text: "two" }] });
    await client.close();
  });

  it("joins an event's data lines, as SSE does, and skips events without data", async () => {
    const result = { content: [{ type: "text", text: "split" }] };
    const lines = JSON.stringify({ jsonrpc: "2.0", id: 1, result }, null, 1).split("\n");
    const body = `: a comment\n\nid: 0\ndata:\n\n${lines.map((line) => `data: ${line}`).join("\r\n")}\r\n\r\n`;
    const server = {
      fetch: async () => new Response(body, { headers: { "content-type": "text/event-stream" } }),
    };
    expect((await harness(server, { era: "modern" }).callTool("x")).result).toEqual(result);
  });

  it("answers request('subscriptions/listen') with the stream's acknowledgment, though the stream stays open", async () => {
    // Was: the harness read the whole body of a stream that never ends, and the request never resolved.
    const client = harness(counter(), { era: "modern" });
    const answer = await within(
      client.request("subscriptions/listen", { notifications: { toolsListChanged: true } }),
      5000,
      "the listen request's answer",
    );
    expect(answer.status).toBe(200);
    expect(answer.result).toBeUndefined();
    expect(answer.notifications).toEqual([
      {
        jsonrpc: "2.0",
        method: "notifications/subscriptions/acknowledged",
        params: {
          notifications: { toolsListChanged: true },
          _meta: { "io.modelcontextprotocol/subscriptionId": 1 },
        },
      },
    ]);
  });

  it.each(["legacy", "modern"] as const)(
    "listen() reads a subscription's messages as they come, and close() ends it (%s harness)",
    async (era) => {
      const server = counter();
      const client = harness(server, { era });
      const subscription = await within(client.listen({ toolsListChanged: true }), 5000, "the listen stream");
      expect(subscription.status).toBe(200);
      expect(subscription.headers.get("content-type")).toContain("text/event-stream");
      expect((await subscription.next())?.method).toBe("notifications/subscriptions/acknowledged");
      server.tool("more", { description: "Another tool.", run: () => "more" });
      expect(await subscription.next()).toEqual({
        jsonrpc: "2.0",
        method: "notifications/tools/list_changed",
        params: { _meta: { "io.modelcontextprotocol/subscriptionId": 1 } },
      });
      // Nothing more comes until something changes: next() says so after its time limit.
      await expect(subscription.next(200)).rejects.toThrow(
        "No message on the subscriptions/listen stream within 200 ms.",
      );
      await subscription.close();
      expect(await subscription.next()).toBeUndefined();
      await client.close();
    },
  );

  it("listen() gives the status and error of a listen request the server refuses, with no stream", async () => {
    const issuer = await testIssuer();
    const auth = { verify: issuer.verify, resource: "http://localhost/mcp", authorizationServers: [issuer.issuer] };
    const server = pico({ name: "t", auth: { ...auth, required: true } }).tool("t", {
      description: "t",
      run: () => "t",
    });
    const subscription = await harness(server, { era: "modern" }).listen({ toolsListChanged: true });
    expect(subscription.status).toBe(401);
    expect(subscription.error?.message).toMatch(/^Unauthorized/);
    expect(await subscription.next()).toBeUndefined();
  });

  it("speaks to a stateless server (sessions: false): each request gets its own answer", async () => {
    const client = harness(counter({ sessions: false }));
    expect((await client.listTools()).result?.tools).toEqual([expect.objectContaining({ name: "count" })]);
    expect((await client.callTool("count")).result).toEqual({ content: [{ type: "text", text: "two" }] });
    expect(client.sessionId).toBeUndefined();
  });
});
