import { describe, expect, it } from "vitest";
import type { Context } from "../src/core/context.js";
import { Registry } from "../src/core/registry.js";
import { McpError, pico } from "../src/index.js";
import { compileResource, type ResourceConfig } from "../src/resources/resources.js";
import { toContents } from "../src/resources/run.js";
import { addResource, core, SERVER_INFO, SERVER_INFO_META } from "./core-helpers.js";
import { modern } from "./http-helpers.js";

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const PNG_BASE64 = "iVBORw0KGgo=";

type Entry = [uri: string, config: ResourceConfig<string>];

/** One registration, its `read` typed from the template as `server.resource` types it. */
function entry<Uri extends string>(uri: Uri, config: ResourceConfig<Uri>): Entry {
  return [uri, config as unknown as ResourceConfig<string>];
}

/** A registry holding `resources`, registered in order. */
function registryWith(resources: Entry[], pageSize?: number): Registry {
  const registry = new Registry({ ...SERVER_INFO, pageSize });
  for (const [uri, config] of resources) addResource(registry, compileResource(uri, config));
  return registry;
}

const ICON = { src: "https://example.com/readme.png", mimeType: "image/png", sizes: ["32x32"] };

describe("compileResource", () => {
  it("describes a fixed resource with every field it was given, named after its URI by default", () => {
    const full = compileResource("docs://readme", {
      name: "readme",
      title: "README",
      description: "What this project is.",
      mimeType: "text/markdown",
      size: 120,
      annotations: { audience: ["user", "assistant"], priority: 0.8, lastModified: "2025-01-12T15:00:58Z" },
      icons: [ICON],
      _meta: { "com.example/owner": "docs" },
      read: () => "",
    });
    expect(full.descriptor).toEqual({
      uri: "docs://readme",
      name: "readme",
      title: "README",
      description: "What this project is.",
      mimeType: "text/markdown",
      size: 120,
      annotations: { audience: ["user", "assistant"], priority: 0.8, lastModified: "2025-01-12T15:00:58Z" },
      icons: [ICON],
      _meta: { "com.example/owner": "docs" },
    });
    expect(full.template).toBeUndefined();
    expect(compileResource("docs://plain", { read: () => "" }).descriptor).toEqual({
      uri: "docs://plain",
      name: "docs://plain",
    });
  });

  it("describes a template by its uriTemplate", () => {
    const template = compileResource("users://{id}/profile", {
      name: "profile",
      mimeType: "application/json",
      read: () => "",
    });
    expect(template.descriptor).toEqual({
      uriTemplate: "users://{id}/profile",
      name: "profile",
      mimeType: "application/json",
    });
    expect(template.template?.variables).toEqual(["id"]);
  });

  it.each<[string, string, object, string]>([
    ["an empty URI", "", { read: () => "" }, "A resource needs a non-empty URI."],
    ["no read function", "docs://x", {}, 'Resource "docs://x" needs a read function.'],
    [
      "an option it does not have",
      "docs://x",
      { mime: "text/plain", read: () => "" },
      'Resource "docs://x" has no option "mime". Its options are uri, name, title, description, mimeType, size, annotations, icons, _meta, auth, read, list, complete.',
    ],
    [
      "a uri in its config that is not the one it is registered at",
      "docs://x",
      { uri: "docs://y", read: () => "" },
      'Resource "docs://x" has uri "docs://y" in its config; it is registered at the URI given to resource(), so leave uri out or make the two the same.',
    ],
    [
      "list on a fixed URI",
      "docs://x",
      { read: () => "", list: () => [] },
      'Resource "docs://x" has no template variables, so it cannot have list or complete.',
    ],
    [
      "complete on a fixed URI",
      "docs://x",
      { read: () => "", complete: {} },
      'Resource "docs://x" has no template variables, so it cannot have list or complete.',
    ],
    [
      "an invalid template",
      "users://{id",
      { read: () => "" },
      'Resource template "users://{id" has an unmatched "{" or "}".',
    ],
    [
      "a closing brace without its opening one",
      "users://id}",
      { read: () => "" },
      'Resource template "users://id}" has an unmatched "{" or "}".',
    ],
    [
      "size on a template",
      "users://{id}",
      { read: () => "", size: 10 },
      'Resource template "users://{id}" cannot have size: each resource it names has its own; give it in list\'s entries.',
    ],
    [
      "a list that is not a function",
      "users://{id}",
      { read: () => "", list: [{ uri: "users://1", name: "one" }] },
      'Resource template "users://{id}" list must be a function (ctx) => resources; it is a value of type object.',
    ],
    [
      "a completer for a variable it does not have",
      "repos://{owner}/{repo}{?q}",
      { read: () => "", complete: { ownr: () => [] } },
      'Resource template "repos://{owner}/{repo}{?q}" has a completer for "ownr", which is not one of its variables (owner, repo, q).',
    ],
    [
      "a completer that is not a function",
      "users://{id}",
      { read: () => "", complete: { id: "1" } },
      'Resource template "users://{id}" complete.id must be a function (value, context) => string[]; it is a value of type string.',
    ],
    [
      "a complete that is not an object",
      "users://{id}",
      { read: () => "", complete: [() => []] },
      'Resource template "users://{id}" complete must be an object: a completer function per name, among its variables (id).',
    ],
    [
      "a priority past 1, which TypeScript takes",
      "docs://x",
      { read: () => "", annotations: { priority: 2 } },
      'Resource "docs://x" needs annotations.priority to be a number from 0 to 1, or left out.',
    ],
    [
      "a lastModified that is no date-time",
      "docs://x",
      { read: () => "", annotations: { lastModified: "yesterday" } },
      'Resource "docs://x" needs annotations.lastModified to be an ISO 8601 date-time with seconds and an offset, such as 2025-01-12T15:00:58Z, or left out.',
    ],
    [
      "an audience the protocol does not have",
      "users://{id}",
      { read: () => "", annotations: { audience: ["model"] } },
      'Resource template "users://{id}" needs annotations.audience to be an array of "user" and "assistant", or left out.',
    ],
    [
      "a name that is not a string",
      "docs://x",
      { read: () => "", name: 42 },
      'Resource "docs://x" needs name: a string.',
    ],
    [
      "a mimeType that is not a string",
      "users://{id}",
      { read: () => "", mimeType: ["text/plain"] },
      'Resource template "users://{id}" needs mimeType to be a string, or left out.',
    ],
  ])("throws a TypeError at registration for %s", (_label, uri, config, message) => {
    expect(() => compileResource(uri, config as ResourceConfig<string>)).toThrow(new TypeError(message));
  });

  it("refuses an icon that is not https: or data:", () => {
    expect(() => compileResource("docs://x", { icons: [{ src: "http://example.com/i.png" }], read: () => "" })).toThrow(
      TypeError,
    );
  });

  it("refuses a second registration of the same URI or template: when the server gets ready, then at the call", async () => {
    const taken = new TypeError('Resource "docs://x" is already registered; resource URIs must be unique.');
    const server = pico(SERVER_INFO)
      .resource("docs://x", { read: () => "" })
      .resource("docs://x", { read: () => "" });
    await expect(server.ready()).rejects.toThrow(taken);
    await expect(server.serve({ port: 0 })).rejects.toThrow(taken);
    const ready = pico(SERVER_INFO).resource("docs://x", { read: () => "" });
    await ready.ready();
    expect(() => ready.resource("docs://x", { read: () => "" })).toThrow(taken);
  });

  // Was: both taken, and reads of either spelling (and subscriptions, updates) went to the first.
  it("refuses a fixed URI that is another spelling of one registered (RFC 3986 §6.2.2): when the server gets ready, then at the call", async () => {
    const same = (second: string, first: string, normal: string) =>
      new TypeError(
        `Resource "${second}" is the same URI as resource "${first}", registered already: both read as "${normal}" (RFC 3986 §6.2.2), so the first would answer for both. Register the resource once, under one spelling.`,
      );
    const server = pico(SERVER_INFO)
      .resource("docs://a~b", { read: () => "tilde" })
      .resource("docs://a%7Eb", { read: () => "escaped" });
    await expect(server.ready()).rejects.toThrow(same("docs://a%7Eb", "docs://a~b", "docs://a~b"));
    const ready = pico(SERVER_INFO).resource("docs://a%7eb", { read: () => "" });
    await ready.ready();
    expect(() => ready.resource("DOCS://a~b", { read: () => "" })).toThrow(
      same("DOCS://a~b", "docs://a%7eb", "docs://a~b"),
    );
    // A template that the URI matches is no other spelling of it: the fixed URI reads first.
    expect(() => ready.resource("docs://{id}", { read: () => "" })).not.toThrow();
    // The path keeps its case (RFC 3986 §6.2.2.1; the host does not): these are two resources.
    expect(() => ready.resource("docs://a~b/Readme", { read: () => "" })).not.toThrow();
    expect(() => ready.resource("docs://a~b/readme", { read: () => "" })).not.toThrow();
  });

  // Was: both taken (while two fixed URIs of that kind were refused), and the second never read.
  it("refuses a template that is another spelling of one registered (RFC 3986 §6.2.2): when the server gets ready, then at the call", async () => {
    const same = (second: string, first: string, normal: string) =>
      new TypeError(
        `Resource template "${second}" is the same template as resource template "${first}", registered already: both read as "${normal}" (RFC 3986 §6.2.2), so the first would answer for both. Register the resource template once, under one spelling.`,
      );
    const server = pico(SERVER_INFO)
      .resource("docs://{id}/a~b", { read: ({ id }) => `tilde ${id}` })
      .resource("docs://{id}/a%7Eb", { read: ({ id }) => `escaped ${id}` });
    await expect(server.ready()).rejects.toThrow(same("docs://{id}/a%7Eb", "docs://{id}/a~b", "docs://{id}/a~b"));
    const ready = pico(SERVER_INFO).resource("notes://{id}", { read: ({ id }) => `note ${id}` });
    await ready.ready();
    expect(() => ready.resource("Notes://{id}", { read: ({ id }) => `Note ${id}` })).toThrow(
      same("Notes://{id}", "notes://{id}", "notes://{id}"),
    );
    expect(() => ready.resource("notes://%7Bid%7D/{rest}", { read: () => "" })).not.toThrow();
    const other = pico(SERVER_INFO).resource("NOTES://{id}", { read: () => "other" });
    await other.ready();
    expect(() => ready.include(other)).toThrow(same("NOTES://{id}", "notes://{id}", "notes://{id}"));
    // Templates that differ once normalised may overlap: the first that matches reads.
    expect(() => ready.resource("notes://{name}", { read: () => "" })).not.toThrow();
    expect(() => ready.resource("notes://{id}/Readme", { read: () => "" })).not.toThrow();
    expect(() => ready.resource("notes://{id}/readme", { read: () => "" })).not.toThrow();
    // The first spelling answers, for URIs of either.
    const response = await (await ready.fetch(modern("resources/read", { uri: "NOTES://7" }))).json();
    expect(response.result.contents).toEqual([{ uri: "NOTES://7", text: "note 7" }]);
  });

  it("refuses, through server.include(other), a fixed URI that is another spelling of one registered", async () => {
    const other = pico(SERVER_INFO).resource("docs://%69ndex", { read: () => "other" });
    const server = pico(SERVER_INFO)
      .resource("docs://index", { read: () => "mine" })
      .include(other);
    await expect(server.ready()).rejects.toThrow(
      new TypeError(
        'Resource "docs://%69ndex" is the same URI as resource "docs://index", registered already: both read as "docs://index" (RFC 3986 §6.2.2), so the first would answer for both. Register the resource once, under one spelling.',
      ),
    );
    const loaded = pico(SERVER_INFO).resource("notes://Index/A", { read: () => "mine" });
    await loaded.ready();
    const including = pico(SERVER_INFO).resource("NOTES://index/A", { read: () => "other" });
    await including.ready();
    expect(() => loaded.include(including)).toThrow(
      new TypeError(
        'Resource "NOTES://index/A" is the same URI as resource "notes://Index/A", registered already: both read as "notes://index/A" (RFC 3986 §6.2.2), so the first would answer for both. Register the resource once, under one spelling.',
      ),
    );
  });
});

describe("toContents", () => {
  it("sends a string as text, with the resource's mimeType", () => {
    expect(toContents("hello", "docs://a", "text/plain")).toEqual([
      { uri: "docs://a", mimeType: "text/plain", text: "hello" },
    ]);
    expect(toContents("hello", "docs://a", undefined)).toEqual([{ uri: "docs://a", text: "hello" }]);
  });

  it("sends bytes as a base64 blob", () => {
    expect(toContents(PNG, "files://logo.png", "image/png")).toEqual([
      { uri: "files://logo.png", mimeType: "image/png", blob: PNG_BASE64 },
    ]);
  });

  it("passes contents items through, filling in the resource's mimeType where an item has none", () => {
    expect(
      toContents(
        [
          { uri: "bundle://r/summary", text: "sum" },
          { uri: "bundle://r/chart", mimeType: "image/png", blob: PNG_BASE64 },
        ],
        "bundle://r",
        "text/plain",
      ),
    ).toEqual([
      { uri: "bundle://r/summary", mimeType: "text/plain", text: "sum" },
      { uri: "bundle://r/chart", mimeType: "image/png", blob: PNG_BASE64 },
    ]);
    expect(toContents({ uri: "x://1", text: "one", _meta: { k: 1 } }, "x://1", undefined)).toEqual([
      { uri: "x://1", text: "one", _meta: { k: 1 } },
    ]);
  });

  it.each([
    ["an empty array", []],
    ["a number", 42],
  ])("refuses %s: a found resource never has empty contents", (_label, value) => {
    expect(() => toContents(value as never, "x://1", undefined)).toThrow(
      new TypeError(
        'Resource "x://1" read returned no contents; return a string, bytes, or { uri, text | blob } items.',
      ),
    );
  });
});

describe("resources/list and resources/templates/list", () => {
  const resources = (): Entry[] => [
    entry("docs://readme", { name: "readme", read: () => "" }),
    entry("users://{id}/profile", {
      name: "profile",
      mimeType: "application/json",
      read: () => "",
      list: () => [
        { uri: "users://1/profile", name: "Ada" },
        { uri: "users://2/profile", name: "Grace", mimeType: "text/plain" },
      ],
    }),
    entry("search://issues{?q}", { name: "search", read: () => "" }),
    entry("files://logo.png", { name: "logo", read: () => PNG }),
    entry("repos://{owner}/{repo}", {
      name: "repo",
      list: async () => [{ uri: "repos://acme/app", name: "acme/app" }],
      read: () => "",
    }),
  ];

  it("lists fixed resources and the templates' concrete ones, in registration order, the template's mimeType filled in", async () => {
    const { legacy } = await core(registryWith(resources()));
    expect((await legacy("resources/list"))?.result).toEqual({
      resources: [
        { uri: "docs://readme", name: "readme" },
        { uri: "users://1/profile", name: "Ada", mimeType: "application/json" },
        { uri: "users://2/profile", name: "Grace", mimeType: "text/plain" },
        { uri: "files://logo.png", name: "logo" },
        { uri: "repos://acme/app", name: "acme/app" },
      ],
    });
  });

  it("lists only templates in resources/templates/list, in registration order", async () => {
    const { legacy } = await core(registryWith(resources()));
    expect((await legacy("resources/templates/list"))?.result).toEqual({
      resourceTemplates: [
        { uriTemplate: "users://{id}/profile", name: "profile", mimeType: "application/json" },
        { uriTemplate: "search://issues{?q}", name: "search" },
        { uriTemplate: "repos://{owner}/{repo}", name: "repo" },
      ],
    });
  });

  it("gives list the request's context", async () => {
    const seen: Context[] = [];
    const list = (ctx: Context) => {
      seen.push(ctx);
      return [];
    };
    const { modern } = await core(registryWith([entry("users://{id}", { read: () => "", list })]));
    await modern("resources/list");
    expect(seen.map((ctx) => ctx.era)).toEqual(["modern"]);
  });

  it("pages both lists with opaque cursors, and refuses a cursor it did not give", async () => {
    const { legacy } = await core(registryWith(resources(), 2));
    const uris: string[] = [];
    const cursors: unknown[] = [];
    let cursor: string | undefined;
    do {
      const page = (await legacy("resources/list", cursor ? { cursor } : {}))?.result as {
        resources: { uri: string }[];
        nextCursor?: string;
      };
      expect(page.resources.length).toBeLessThanOrEqual(2);
      uris.push(...page.resources.map((resource) => resource.uri));
      cursor = page.nextCursor;
      cursors.push(cursor);
    } while (cursor);
    expect(uris).toEqual([
      "docs://readme",
      "users://1/profile",
      "users://2/profile",
      "files://logo.png",
      "repos://acme/app",
    ]);
    expect(cursors).toHaveLength(3);

    const first = (await legacy("resources/templates/list"))?.result as { nextCursor: string };
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = (await legacy("resources/templates/list", { cursor: first.nextCursor }))?.result;
    expect(second).toEqual({ resourceTemplates: [{ uriTemplate: "repos://{owner}/{repo}", name: "repo" }] });

    expect((await legacy("resources/list", { cursor: "not a cursor" }))?.error).toEqual({
      code: -32602,
      message: "Invalid cursor for resources: list again without a cursor to start over",
    });
  });

  it("marks modern list results cacheable", async () => {
    const { modern } = await core(registryWith(resources()));
    expect((await modern("resources/templates/list"))?.result).toMatchObject({
      resultType: "complete",
      ttlMs: 0,
      cacheScope: "private",
      _meta: SERVER_INFO_META,
    });
  });
});

describe("resources/read", () => {
  const registry = () =>
    registryWith([
      entry("docs://readme", { mimeType: "text/markdown", read: ({ uri }) => `# Read from ${uri}` }),
      entry("users://me/profile", { read: () => "the exact URI wins over the template below" }),
      entry("users://{id}/profile", {
        mimeType: "application/json",
        read: ({ uri, id }) => (id === "404" ? undefined : JSON.stringify({ uri, id })),
      }),
      entry("users://{anything}/{rest}", { read: () => "registered later, so never reached for a profile" }),
      entry("search://issues{?q,limit}", { read: (args) => JSON.stringify(args) }),
      entry("file:///{+path}", {
        read: ({ path }) => ({ uri: `file:///${path}`, text: path, mimeType: "text/x-path" }),
      }),
      entry("broken://{id}", {
        read: ({ id }) => {
          if (id === "mcp") throw new McpError(-32001, "Not authorised", { id });
          throw new Error("disk on fire");
        },
      }),
    ]);

  it("reads a fixed resource", async () => {
    const { legacy } = await core(registry());
    expect((await legacy("resources/read", { uri: "docs://readme" }))?.result).toEqual({
      contents: [{ uri: "docs://readme", mimeType: "text/markdown", text: "# Read from docs://readme" }],
    });
  });

  it("reads a template with its decoded variables and the URI as asked", async () => {
    const { legacy } = await core(registry());
    expect((await legacy("resources/read", { uri: "users://ada%20l/profile" }))?.result).toEqual({
      contents: [
        {
          uri: "users://ada%20l/profile",
          mimeType: "application/json",
          text: '{"uri":"users://ada%20l/profile","id":"ada l"}',
        },
      ],
    });
  });

  it("prefers an exact URI, then the first template that matches, in registration order", async () => {
    const { legacy } = await core(registry());
    expect((await legacy("resources/read", { uri: "users://me/profile" }))?.result).toMatchObject({
      contents: [{ text: "the exact URI wins over the template below" }],
    });
    expect((await legacy("resources/read", { uri: "users://x/profile" }))?.result).toMatchObject({
      contents: [{ text: '{"uri":"users://x/profile","id":"x"}' }],
    });
    expect((await legacy("resources/read", { uri: "users://x/other" }))?.result).toMatchObject({
      contents: [{ text: "registered later, so never reached for a profile" }],
    });
  });

  it("passes query variables when present, and leaves absent ones out", async () => {
    const { legacy } = await core(registry());
    const read = async (uri: string) =>
      JSON.parse(
        ((await legacy("resources/read", { uri }))!.result as { contents: { text: string }[] }).contents[0]!.text,
      );
    expect(await read("search://issues?limit=5&q=memory%20leak")).toEqual({
      uri: "search://issues?limit=5&q=memory%20leak",
      q: "memory leak",
      limit: "5",
    });
    expect(await read("search://issues")).toEqual({ uri: "search://issues" });
  });

  it("reads reserved expansions with their slashes", async () => {
    const { legacy } = await core(registry());
    expect((await legacy("resources/read", { uri: "file:///src/index.ts" }))?.result).toEqual({
      contents: [{ uri: "file:///src/index.ts", text: "src/index.ts", mimeType: "text/x-path" }],
    });
  });

  it("answers an unknown URI with -32002 and data.uri in a 2025 session", async () => {
    const { legacy } = await core(registry());
    expect(await legacy("resources/read", { uri: "nothing://here" }, { id: 9 })).toEqual({
      jsonrpc: "2.0",
      id: 9,
      error: {
        code: -32002,
        message:
          "Resource not found: nothing://here. Call resources/list or resources/templates/list to see what can be read.",
        data: { uri: "nothing://here" },
      },
    });
  });

  it("answers an unknown URI with -32602 and data.uri in 2026-07-28", async () => {
    const { modern } = await core(registry());
    expect((await modern("resources/read", { uri: "nothing://here" }))?.error).toEqual({
      code: -32602,
      message:
        "Resource not found: nothing://here. Call resources/list or resources/templates/list to see what can be read.",
      data: { uri: "nothing://here" },
    });
  });

  it("answers a template match whose read returns undefined as not found, in each era's code", async () => {
    const { legacy, modern } = await core(registry());
    expect((await legacy("resources/read", { uri: "users://404/profile" }))?.error).toMatchObject({
      code: -32002,
      data: { uri: "users://404/profile" },
    });
    expect((await modern("resources/read", { uri: "users://404/profile" }))?.error).toMatchObject({
      code: -32602,
      data: { uri: "users://404/profile" },
    });
  });

  it("turns a thrown McpError into its JSON-RPC error, and another error into -32603", async () => {
    const { legacy } = await core(registry());
    expect((await legacy("resources/read", { uri: "broken://mcp" }))?.error).toEqual({
      code: -32001,
      message: "Not authorised",
      data: { id: "mcp" },
    });
    expect((await legacy("resources/read", { uri: "broken://other" }))?.error).toEqual({
      code: -32603,
      message: "Internal error: disk on fire",
    });
  });

  it("needs params.uri", async () => {
    const { legacy } = await core(registry());
    expect((await legacy("resources/read", {}))?.error).toEqual({
      code: -32602,
      message: "resources/read needs params.uri (a string)",
    });
  });

  it("marks a modern read complete and cacheable", async () => {
    const { modern } = await core(registry());
    expect((await modern("resources/read", { uri: "docs://readme" }))?.result).toEqual({
      contents: [{ uri: "docs://readme", mimeType: "text/markdown", text: "# Read from docs://readme" }],
      resultType: "complete",
      ttlMs: 0,
      cacheScope: "private",
      _meta: SERVER_INFO_META,
    });
  });
});

describe("resource capabilities", () => {
  it("advertises resources (subscribe, listChanged) and completions only once a resource is registered", async () => {
    const empty = new Registry(SERVER_INFO);
    expect(empty.capabilities()).toEqual({ logging: {} });
    const { legacy } = await core(empty);
    expect((await legacy("resources/list"))?.error).toMatchObject({ code: -32601 });
    const registry = registryWith([entry("docs://x", { read: () => "" })]);
    expect(registry.capabilities()).toEqual({
      logging: {},
      resources: { subscribe: true, listChanged: true },
      completions: {},
    });
  });

  it("forgets a removed resource, once the server is ready (registered, its layer loaded)", async () => {
    const server = pico(SERVER_INFO).resource("docs://x", { read: () => "x" });
    await server.ready();
    expect(server.remove("resource", "docs://x")).toBe(true);
    expect(server.remove("resource", "docs://x")).toBe(false);
  });
});
