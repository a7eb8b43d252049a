import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { RequestContext } from "../src/core/context.js";
import { META } from "../src/core/types.js";
import { type Context, ErrorCode, McpError, pico } from "../src/index.js";
import { headerValue } from "../src/transports/http/headers.js";
import headerPlan from "./fixtures/header-plan-server.js";
import { EventReader, MODERN, messageOf, meta, modern, post, remote, signal, within } from "./http-helpers.js";

/**
 * 2026-07-28 requests over Streamable HTTP (spec-2026-07-28 §1.2, §5.2): stateless, the standard
 * headers checked against the body in a fixed order, JSON replies that turn into SSE only when the
 * handler emits something first, and cancellation by dropping the request.
 */

const progress = (ctx: Context, n: number) =>
  (ctx as RequestContext).emit?.({
    jsonrpc: "2.0",
    method: "notifications/progress",
    params: { progressToken: "p", progress: n },
  });

function server() {
  return pico({ name: "modern", version: "2.0.0", signals: false })
    .tool("echo", { input: z.object({ text: z.string() }), run: ({ text }) => text })
    .tool("chatty", {
      run: (_args, ctx) => {
        progress(ctx, 1);
        progress(ctx, 2);
        return "done";
      },
    })
    .tool("needs_sampling", {
      run: (_args, ctx) => {
        if ((ctx.meta?.progressToken as string) === "emit first") progress(ctx, 1);
        throw new McpError(ErrorCode.MissingRequiredClientCapability, "Missing required client capability", {
          requiredCapabilities: { sampling: {} },
        });
      },
    })
    .tool("geo", {
      input: z.object({
        region: z.string().meta({ "x-mcp-header": "Region" }).optional(),
        count: z.number().int().meta({ "x-mcp-header": "Count" }).optional(),
        flag: z.boolean().meta({ "x-mcp-header": "Flag" }).optional(),
        opts: z.object({ tier: z.string().meta({ "x-mcp-header": "Tier" }) }).optional(),
      }),
      run: (args) => JSON.stringify(args),
    });
}

async function expectError(response: Response, status: number, code: number, id?: number | string) {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toBe("application/json");
  const body = await response.json();
  expect(body.error.code).toBe(code);
  // A readable id is echoed, even on header errors.
  if (id !== undefined) expect(body.id).toBe(id);
  return body.error as { code: number; message: string; data?: unknown };
}

describe("modern requests: replies", () => {
  it("answers a tools/call with plain JSON, stateless, carrying resultType and serverInfo", async () => {
    const response = await server().fetch(
      modern("tools/call", { name: "echo", arguments: { text: "hi" } }, {}, { id: 7 }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(response.headers.get("mcp-session-id")).toBeNull();
    expect(await response.json()).toEqual({
      jsonrpc: "2.0",
      id: 7,
      result: {
        content: [{ type: "text", text: "hi" }],
        resultType: "complete",
        _meta: { [META.serverInfo]: { name: "modern", version: "2.0.0" } },
      },
    });
  });

  it("ignores Mcp-Session-Id and Last-Event-ID: modern requests are stateless", async () => {
    const response = await server().fetch(
      modern(
        "tools/call",
        { name: "echo", arguments: { text: "s" } },
        { "mcp-session-id": "x", "last-event-id": "1-1" },
      ),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("mcp-session-id")).toBeNull();
  });

  it("answers server/discover and tools/list with cache hints", async () => {
    const discover = await (await server().fetch(modern("server/discover"))).json();
    expect(discover.result).toMatchObject({ supportedVersions: [MODERN], capabilities: { tools: {} }, ttlMs: 0 });
    const list = await (await server().fetch(modern("tools/list"))).json();
    expect(list.result.tools.map((tool: { name: string }) => tool.name)).toEqual([
      "echo",
      "chatty",
      "needs_sampling",
      "geo",
    ]);
    expect(list.result).toMatchObject({ resultType: "complete", ttlMs: 0, cacheScope: "private" });
  });

  it("upgrades to SSE when the handler emits before its result: notifications first, then the response", async () => {
    const response = await server().fetch(modern("tools/call", { name: "chatty" }, {}, { id: "c1" }));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect(response.headers.get("cache-control")).toBe("no-cache, no-transform");
    expect(response.headers.get("x-accel-buffering")).toBe("no");
    expect(response.headers.get("mcp-session-id")).toBeNull();
    const events = await new EventReader(response).rest();
    expect(events.map((event) => event.event)).toEqual(["message", "message", "message"]);
    // A stateless stream cannot be resumed, so its events carry no ids.
    expect(events.every((event) => event.id === undefined)).toBe(true);
    expect(events.map(messageOf)).toEqual([
      { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "p", progress: 1 } },
      { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "p", progress: 2 } },
      {
        jsonrpc: "2.0",
        id: "c1",
        result: expect.objectContaining({ content: [{ type: "text", text: "done" }], resultType: "complete" }),
      },
    ]);
  });

  it("never upgrades a JSON-only client: its notifications are dropped and the result comes as JSON", async () => {
    const response = await server().fetch(modern("tools/call", { name: "chatty" }, { accept: "application/json" }));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect((await response.json()).result.content).toEqual([{ type: "text", text: "done" }]);
  });

  it("answers an SSE-only client with a stream, even when nothing is emitted", async () => {
    const quiet = await server().fetch(
      modern("tools/call", { name: "echo", arguments: { text: "s" } }, { accept: "text/event-stream" }, { id: 3 }),
    );
    expect(quiet.status).toBe(200);
    expect(quiet.headers.get("content-type")).toBe("text/event-stream");
    const events = await new EventReader(quiet).rest();
    expect(events.map(messageOf)).toEqual([
      expect.objectContaining({ id: 3, result: expect.objectContaining({ content: [{ type: "text", text: "s" }] }) }),
    ]);
    const chatty = await server().fetch(modern("tools/call", { name: "chatty" }, { accept: "text/event-stream" }));
    expect((await new EventReader(chatty).rest()).length).toBe(3);
  });
});

describe("modern requests: a missing client capability", () => {
  it("is a 400 with -32021, even for a client that accepts only SSE", async () => {
    for (const accept of ["application/json, text/event-stream", "text/event-stream"]) {
      const response = await server().fetch(modern("tools/call", { name: "needs_sampling" }, { accept }, { id: 11 }));
      const error = await expectError(response, 400, ErrorCode.MissingRequiredClientCapability, 11);
      expect(error.data).toEqual({ requiredCapabilities: { sampling: {} } });
    }
  });

  it("travels in-band once the reply has started streaming", async () => {
    const response = await server().fetch(
      modern("tools/call", { name: "needs_sampling", _meta: { progressToken: "emit first" } }, {}, { id: 12 }),
    );
    expect(response.status).toBe(200);
    const events = await new EventReader(response).rest();
    expect(messageOf(events[1])).toMatchObject({ id: 12, error: { code: ErrorCode.MissingRequiredClientCapability } });
  });
});

describe("modern requests: the order of the checks", () => {
  it("rejects a malformed envelope with -32602/400 before looking at any header", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ [META.protocolVersion]: 2026 }, `Invalid params: _meta["${META.protocolVersion}"] must be a string`],
      [{ [META.protocolVersion]: MODERN }, `_meta["${META.clientCapabilities}"] is required`],
      [
        { [META.protocolVersion]: MODERN, [META.clientCapabilities]: [] },
        `_meta["${META.clientCapabilities}"] is required`,
      ],
      [meta({ [META.clientInfo]: { name: "x" } }), `_meta["${META.clientInfo}"] must be an object`],
      [meta({ [META.logLevel]: "loud" }), `_meta["${META.logLevel}"] must be one of`],
    ];
    for (const [envelope, message] of cases) {
      // Every header is wrong as well: the envelope is judged first.
      const response = await server().fetch(
        post(
          { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: envelope } },
          { "mcp-protocol-version": "1999-01-01", "mcp-method": "nope" },
        ),
      );
      const error = await expectError(response, 400, ErrorCode.InvalidParams, 1);
      expect(error.message).toContain(message);
    }
  });

  it("serves a request without clientInfo", async () => {
    const response = await server().fetch(modern("tools/list"));
    expect(response.status).toBe(200);
  });

  it("checks header against body before judging the version: v999 in the body, 2026-07-28 in the header is -32020", async () => {
    const response = await server().fetch(
      post(
        { jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta: meta({ [META.protocolVersion]: "v999" }) } },
        { "mcp-protocol-version": MODERN, "mcp-method": "tools/list" },
      ),
    );
    const error = await expectError(response, 400, ErrorCode.HeaderMismatch, 2);
    expect(error.message).toBe('MCP-Protocol-Version header "2026-07-28" does not match _meta protocol version "v999"');
  });

  it("answers -32022/400 naming supported and requested versions when header and body agree on an unserved one", async () => {
    for (const version of ["v999", "2027-01-01"]) {
      const response = await server().fetch(
        post(
          { jsonrpc: "2.0", id: 3, method: "tools/list", params: { _meta: meta({ [META.protocolVersion]: version }) } },
          // Missing Mcp-Method: the version is judged before the missing headers.
          { "mcp-protocol-version": version },
        ),
      );
      const error = await expectError(response, 400, ErrorCode.UnsupportedProtocolVersion, 3);
      expect(error.data).toEqual({ supported: [MODERN], requested: version });
    }
  });

  it("answers -32022 to a legacy version claimed in _meta", async () => {
    const response = await server().fetch(
      post(
        {
          jsonrpc: "2.0",
          id: 4,
          method: "tools/list",
          params: { _meta: meta({ [META.protocolVersion]: "2025-11-25" }) },
        },
        { "mcp-protocol-version": "2025-11-25", "mcp-method": "tools/list" },
      ),
    );
    await expectError(response, 400, ErrorCode.UnsupportedProtocolVersion, 4);
  });

  it("checks Mcp-Method against the body, case-sensitively", async () => {
    for (const method of ["TOOLS/LIST", "tools/call"]) {
      const error = await expectError(
        await server().fetch(modern("tools/list", {}, { "mcp-method": method }, { id: 5 })),
        400,
        ErrorCode.HeaderMismatch,
        5,
      );
      expect(error.message).toBe(`Mcp-Method header "${method}" does not match the body's method "tools/list"`);
    }
  });

  it("requires the standard headers: -32020/400", async () => {
    const cases: [Request, string][] = [
      [
        modern("tools/list", {}, { "mcp-protocol-version": null }),
        'The MCP-Protocol-Version header is required; send it with every request, equal to params._meta["io.modelcontextprotocol/protocolVersion"]',
      ],
      [
        modern("tools/list", {}, { "mcp-method": null }),
        "The Mcp-Method header is required; send it with every request, equal to its method",
      ],
      [
        modern("tools/call", { name: "echo", arguments: { text: "x" } }, { "mcp-name": null }),
        "The Mcp-Name header is required for tools/call (it mirrors params.name)",
      ],
      [
        modern("tools/call", { name: "echo", arguments: { text: "x" } }, { "mcp-name": "Echo" }),
        'Mcp-Name header "Echo" does not match params.name "echo"',
      ],
    ];
    for (const [request, message] of cases) {
      const error = await expectError(await server().fetch(request), 400, ErrorCode.HeaderMismatch);
      expect(error.message).toBe(message);
    }
  });

  it("checks missing headers before the method: an unknown method without Mcp-Method is -32020", async () => {
    const response = await server().fetch(modern("nope/nothing", {}, { "mcp-method": null }));
    await expectError(response, 400, ErrorCode.HeaderMismatch);
  });

  it("answers -32601/404 with the id to a method this era does not have or this server does not offer", async () => {
    const cases: [method: string, instead: string][] = [
      ["nope/nothing", ""],
      // What replaced it (test/peers/removed-methods.test.ts has each removed method's words).
      ["initialize", ", which has no handshake"],
      ["ping", ": call server/discover"],
    ];
    for (const [method, instead] of cases) {
      const error = await expectError(
        await server().fetch(modern(method, {}, {}, { id: 6 })),
        404,
        ErrorCode.MethodNotFound,
        6,
      );
      expect(error.message).toMatch(
        new RegExp(`^Method not found: "${method}" is not available in protocol ${MODERN}${instead}`),
      );
    }
    // 2026-07-28 has resources/list: the reason is that this server has no resources.
    const list = await expectError(
      await server().fetch(modern("resources/list", {}, {}, { id: 6 })),
      404,
      ErrorCode.MethodNotFound,
      6,
    );
    expect(list.message).toBe(
      'Method not found: "resources/list" is not available because this server has no resources; call only the methods of the capabilities it advertises',
    );
    const empty = pico({ name: "empty", version: "1" });
    await expectError(await empty.fetch(modern("tools/list", {}, {}, { id: 7 })), 404, ErrorCode.MethodNotFound, 7);
  });

  it("checks Mcp-Param headers last", async () => {
    const args = { name: "geo", arguments: { region: "eu" } };
    const noName = await expectError(
      await server().fetch(modern("tools/call", args, { "mcp-name": null })),
      400,
      -32020,
    );
    expect(noName.message).toBe("The Mcp-Name header is required for tools/call (it mirrors params.name)");
    const error = await expectError(await server().fetch(modern("tools/call", args)), 400, ErrorCode.HeaderMismatch);
    expect(error.message).toBe("The mcp-param-region header is required when arguments.region is given");
  });

  it("answers an unknown tool in-band with -32602 and 200", async () => {
    const response = await server().fetch(modern("tools/call", { name: "nothing" }, {}, { id: 8 }));
    await expectError(response, 200, ErrorCode.InvalidParams, 8);
  });
});

describe("modern requests: header values", () => {
  const b64 = (text: string) => `=?base64?${Buffer.from(text, "utf8").toString("base64")}?=`;

  it("decodes =?base64?…?= in Mcp-Name before comparing", async () => {
    const response = await server().fetch(
      modern("tools/call", { name: "echo", arguments: { text: "b" } }, { "mcp-name": b64("echo") }),
    );
    expect(response.status).toBe(200);
  });

  it("takes =?base64?…?= in MCP-Protocol-Version and Mcp-Method literally: -32020, as a router reads them", async () => {
    // Only Mcp-Name and Mcp-Param-* have the Base64 form (Streamable HTTP "Server Validation").
    for (const headers of [{ "mcp-protocol-version": b64(MODERN) }, { "mcp-method": b64("tools/call") }]) {
      const response = await server().fetch(
        modern("tools/call", { name: "echo", arguments: { text: "b" } }, headers, { id: "b" }),
      );
      const error = await expectError(response, 400, ErrorCode.HeaderMismatch, "b");
      expect(error.message).toContain("does not match");
    }
  });

  it("rejects malformed base64 or invalid UTF-8 inside the sentinel with -32020", async () => {
    for (const name of ["=?base64?a?=", "=?base64?/w==?=", "=?base64?ZWNobw?=x", "=?BASE64?ZWNobw==?="]) {
      const response = await server().fetch(
        modern("tools/call", { name: "echo", arguments: { text: "x" } }, { "mcp-name": name }),
      );
      await expectError(response, 400, ErrorCode.HeaderMismatch);
    }
  });

  it("rejects raw non-ASCII header values with -32020; the sentinel form carries them", async () => {
    const raw = await server().fetch(
      modern("tools/call", { name: "geo", arguments: { region: "Zürich" } }, { "mcp-param-region": "Zürich" }),
    );
    await expectError(raw, 400, ErrorCode.HeaderMismatch);
    const encoded = await server().fetch(
      modern("tools/call", { name: "geo", arguments: { region: "Zürich" } }, { "mcp-param-region": b64("Zürich") }),
    );
    expect(encoded.status).toBe(200);
    expect((await encoded.json()).result.content[0].text).toBe('{"region":"Zürich"}');
  });

  it("accepts whitespace around values", async () => {
    const response = await server().fetch(
      modern(
        "tools/call",
        { name: "echo", arguments: { text: "w" } },
        { "mcp-protocol-version": ` ${MODERN}\t`, "mcp-method": "\ttools/call ", "mcp-name": "  echo " },
      ),
    );
    expect(response.status).toBe(200);
  });

  it("headerValue trims optional whitespace itself, for adapters that do not", () => {
    expect(headerValue("  echo \t")).toBe("echo");
    expect(headerValue(" =?base64?ZWNobw==?= ")).toBe("echo");
    expect(headerValue("=?base64?WsO8cmljaA==?=")).toBe("Zürich");
    expect(headerValue("=?base64??=")).toBe("");
    expect(headerValue("Zürich")).toBeUndefined();
    expect(headerValue("a\u0001b")).toBeUndefined();
    expect(headerValue("=?base64?a?=")).toBeUndefined();
  });
});

describe("modern requests: x-mcp-header parameters", () => {
  const geo = (args: Record<string, unknown>, headers: Record<string, string> = {}) =>
    server().fetch(modern("tools/call", { name: "geo", arguments: args }, headers));

  it("needs the header when the argument is present, and it must be equal", async () => {
    expect((await geo({ region: "eu" }, { "mcp-param-region": "eu" })).status).toBe(200);
    const missing = await expectError(await geo({ region: "eu" }), 400, ErrorCode.HeaderMismatch);
    expect(missing.message).toBe("The mcp-param-region header is required when arguments.region is given");
    const wrong = await expectError(
      await geo({ region: "eu" }, { "mcp-param-region": "EU" }),
      400,
      ErrorCode.HeaderMismatch,
    );
    expect(wrong.message).toBe('The mcp-param-region header "EU" does not match arguments.region');
  });

  it("does not expect the header when the argument is absent or null", async () => {
    expect((await geo({})).status).toBe(200);
    // Null is not checked against a header; it then fails validation, as a tool error.
    const nulled = await geo({ region: null });
    expect(nulled.status).toBe(200);
    expect((await nulled.json()).result).toMatchObject({ isError: true });
    const noArguments = await server().fetch(modern("tools/call", { name: "geo" }));
    expect(noArguments.status).toBe(200);
  });

  it("compares integers numerically", async () => {
    for (const header of ["42", "42.0", "4.2e1", " 42 "]) {
      expect((await geo({ count: 42 }, { "mcp-param-count": header })).status, header).toBe(200);
    }
    // Only decimal digits: Number() also reads hex, binary, octal, a sign and Infinity, which a proxy routing on the header does not.
    for (const header of [
      "43",
      "",
      "forty-two",
      "0x2a1",
      "0x2A",
      "0b101010",
      "0o52",
      "+42",
      ".42e2",
      "42.",
      "Infinity",
    ]) {
      await expectError(await geo({ count: 42 }, { "mcp-param-count": header }), 400, ErrorCode.HeaderMismatch);
    }
    expect((await geo({ count: 0 }, { "mcp-param-count": "0" })).status).toBe(200);
  });

  it("compares booleans as true/false", async () => {
    expect((await geo({ flag: true }, { "mcp-param-flag": "true" })).status).toBe(200);
    expect((await geo({ flag: false }, { "mcp-param-flag": "false" })).status).toBe(200);
    for (const header of ["True", "1", "yes", "false"]) {
      await expectError(await geo({ flag: true }, { "mcp-param-flag": header }), 400, ErrorCode.HeaderMismatch);
    }
  });

  it("follows nested properties", async () => {
    const missing = await expectError(await geo({ opts: { tier: "gold" } }), 400, ErrorCode.HeaderMismatch);
    expect(missing.message).toBe("The mcp-param-tier header is required when arguments.opts.tier is given");
    expect((await geo({ opts: { tier: "gold" } }, { "mcp-param-tier": "gold" })).status).toBe(200);
  });

  it("matches header names case-insensitively and ignores unknown Mcp-Param headers", async () => {
    expect((await geo({ region: "eu" }, { "MCP-PARAM-REGION": "eu", "mcp-param-other": "x" })).status).toBe(200);
    expect((await geo({}, { "mcp-param-region": "ignored when the argument is absent" })).status).toBe(200);
  });

  it("refuses a header no client could have encoded as invalid, its argument absent or given, over a real listener", async () => {
    // Streamable HTTP "Server Behavior for Custom Headers": a recognized Mcp-Param header with invalid
    // characters MUST be rejected, whether or not the argument it mirrors is in the body.
    const listening = await server().serve({ port: 0 });
    try {
      // Raw Latin-1 (as Node reads a byte past ASCII), and Base64 cut short inside the sentinel.
      for (const value of ["Zürich", "=?base64?a?="]) {
        // Was, with the argument given: "does not match arguments.region", though it was the encoding that was wrong.
        for (const [args, end] of [
          [{ count: 1 }, ", or leave it out"],
          [{ count: 1, region: value }, ""],
        ] as const) {
          const response = await remote(listening.url).fetch(
            modern(
              "tools/call",
              { name: "geo", arguments: args },
              { "mcp-param-count": "1", "mcp-param-region": value },
              { id: "bad" },
            ),
          );
          const error = await expectError(response, 400, ErrorCode.HeaderMismatch, "bad");
          expect(error.message).toBe(
            `The mcp-param-region header "${value}" is invalid; send visible ASCII or =?base64?…?=${end}`,
          );
        }
      }
    } finally {
      await listening.close();
    }
  });

  it("shows a long header that does not match cut short in its error, over a real listener", async () => {
    // Was: the whole header value in the message (here 2,000 characters; a header may be tens of kB),
    // which goes into the model's context.
    const listening = await server().serve({ port: 0 });
    try {
      const long = "x".repeat(2000);
      const response = await remote(listening.url).fetch(
        modern("tools/call", { name: "geo", arguments: { region: "eu" } }, { "mcp-param-region": long }),
      );
      const error = await expectError(response, 400, ErrorCode.HeaderMismatch);
      expect(error.message).toBe(`The mcp-param-region header "${"x".repeat(200)}…" does not match arguments.region`);
    } finally {
      await listening.close();
    }
  });

  it("checks every annotated argument", async () => {
    const headers = {
      "mcp-param-region": "eu",
      "mcp-param-count": "3",
      "mcp-param-flag": "true",
      "mcp-param-tier": "t",
    };
    expect((await geo({ region: "eu", count: 3, flag: true, opts: { tier: "t" } }, headers)).status).toBe(200);
    await expectError(
      await geo({ region: "eu", count: 3, flag: true, opts: { tier: "t" } }, { ...headers, "mcp-param-count": "4" }),
      400,
      ErrorCode.HeaderMismatch,
    );
  });
});

describe("modern requests: deeply nested values in what the headers mirror", () => {
  /** A JSON array nested 100,000 deep: JSON.parse reads it, but anything that recurses through it overflows the stack. */
  const DEEP = "[".repeat(100_000) + "]".repeat(100_000);
  const body = (params: string) =>
    `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{${params},"_meta":${JSON.stringify(meta())}}}`;
  const headers = (name: string) => ({ "mcp-protocol-version": MODERN, "mcp-method": "tools/call", "mcp-name": name });

  it("answers a params.name that is no string with -32020, not a stack overflow", async () => {
    // Was: the error message quoted params.name with JSON.stringify, which threw a RangeError, so
    // server.fetch rejected (a 500 without a JSON-RPC error).
    const error = await expectError(
      await server().fetch(post(body(`"name":${DEEP}`), headers("echo"))),
      400,
      ErrorCode.HeaderMismatch,
      9,
    );
    expect(error.message).toBe('Mcp-Name header "echo" does not match params.name, which is not a string');
  });

  it("answers an x-mcp-header argument that is no primitive with -32020, not a stack overflow", async () => {
    // Was: the argument was compared as String(value), which recursed through the array and threw.
    const error = await expectError(
      await server().fetch(
        post(body(`"name":"geo","arguments":{"region":${DEEP}}`), { ...headers("geo"), "mcp-param-region": "eu" }),
      ),
      400,
      ErrorCode.HeaderMismatch,
      9,
    );
    expect(error.message).toBe('The mcp-param-region header "eu" does not match arguments.region');
  });
});

describe("modern requests: cancellation", () => {
  /** A server whose tool waits to be cancelled, reporting when it started and what its signal did. */
  function waiting(beforeWait?: (ctx: Context) => void, afterAbort?: (ctx: Context) => void) {
    const started = signal();
    const aborted = signal<unknown>();
    const app = pico({ name: "c", version: "1" }).tool("wait", {
      run: async (_args, ctx) => {
        beforeWait?.(ctx);
        started.resolve();
        if (!ctx.signal.aborted) {
          await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve, { once: true }));
        }
        aborted.resolve(ctx.signal.reason);
        afterAbort?.(ctx);
        return "too late";
      },
    });
    return { app, started, aborted };
  }

  it("aborts ctx.signal when the request's signal aborts, and sends no response", async () => {
    const { app, started, aborted } = waiting();
    const client = new AbortController();
    const pending = app.fetch(modern("tools/call", { name: "wait" }, {}, { signal: client.signal }));
    await within(started.promise, 2000, "the tool starting");
    client.abort();
    expect(await within(aborted.promise, 2000, "ctx.signal aborting")).toBeDefined();
    const response = await pending;
    expect(response.status).toBe(202);
    expect(await response.text()).toBe("");
  });

  it("writes nothing more to a stream once the request is cancelled", async () => {
    const { app, started, aborted } = waiting(
      (ctx) => progress(ctx, 1),
      (ctx) => progress(ctx, 2),
    );
    const client = new AbortController();
    const response = await app.fetch(modern("tools/call", { name: "wait" }, {}, { signal: client.signal }));
    await within(started.promise);
    const reader = new EventReader(response);
    expect(messageOf(await reader.next())).toMatchObject({ params: { progress: 1 } });
    client.abort();
    await within(aborted.promise);
    // The stream ends with neither the late notification nor the result.
    expect(await reader.rest()).toEqual([]);
  });

  it("cancels a request whose signal is already aborted", async () => {
    const { app, aborted } = waiting();
    const response = await app.fetch(modern("tools/call", { name: "wait" }, {}, { signal: AbortSignal.abort() }));
    await within(aborted.promise);
    expect(response.status).toBe(202);
  });
});

describe("a message that needs no answer under the 2026-07-28 header", () => {
  // 2026-07-28 has no initialize and no session: a notification or a response it posts is taken
  // (202 Accepted, empty: 2026-07-28 "Streamable HTTP"), never refused with advice to initialize.
  it.each([
    ["a notification", { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 3 } }],
    ["a response", { jsonrpc: "2.0", id: 3, result: {} }],
    ["an error response without an id", { jsonrpc: "2.0", error: { code: -32700, message: "Parse error" } }],
    // Was: refused 400 with -32600, as a batch outside 2025-03-26 (JSON-RPC 2.0 §6: nothing is returned).
    ["an array made only of responses", [{ jsonrpc: "2.0", id: 3, result: {} }]],
  ])("answers %s 202, empty, on a server with sessions", async (_what, message) => {
    const response = await server().fetch(post(message, { "mcp-protocol-version": MODERN }));
    expect(response.status).toBe(202);
    expect(await response.text()).toBe("");
  });
});

describe("modern requests: x-mcp-header annotations that break the rules (lint flags them)", () => {
  const call = (name: string, args: Record<string, unknown>, headers: Record<string, string> = {}) =>
    headerPlan.fetch(modern("tools/call", { name, arguments: args }, headers));

  it("checks no header for a name that is no header name: no request can carry one", async () => {
    // Before, the web handler asked Headers.get for "mcp-param-my region", which throws a TypeError.
    for (const name of ["name_with_space", "name_not_ascii", "name_with_tab", "name_empty"]) {
      const response = await call(name, { region: "eu" });
      expect(response.status, name).toBe(200);
      expect((await response.json()).result.isError, name).toBeUndefined();
    }
  });

  it("reads two names differing in case as one header, which must then match both arguments", async () => {
    expect((await call("name_twice", { from: "eu", to: "eu" }, { "mcp-param-region": "eu" })).status).toBe(200);
    const error = await expectError(
      await call("name_twice", { from: "eu", to: "us" }, { "mcp-param-region": "eu" }),
      400,
      ErrorCode.HeaderMismatch,
    );
    expect(error.message).toBe('The mcp-param-region header "eu" does not match arguments.to');
  });
});
