/**
 * The official v1 client (@modelcontextprotocol/sdk, 2025-11-25: initialize and a session) drives
 * test/fixtures/resources-server.ts over stdio (a child process) and over Streamable HTTP
 * (`serve({ port: 0 })`): resources, templates, prompts, completions, logging, progress, list
 * changes and resource subscriptions.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  LoggingMessageNotificationSchema,
  McpError,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  LEVELS,
  makeResourcesServer,
  NUMBERS,
  PNG_BASE64,
  PROMPT_NAMES,
  README,
  README_TEXT,
  TEMPLATES,
} from "../fixtures/resources-server.js";
import { type Recorded, recordingFetch, sseMessages } from "./http-fixture.js";
import {
  CODE_REVIEW,
  CODE_REVIEW_RESULT,
  LISTED_URIS,
  type Message,
  MISSING_CODE,
  progressOn,
  resourcesFixture,
  STEPS,
  tap,
  USER_TEMPLATE,
  until,
  type Wire,
} from "./resources-helpers.js";

const PAGE_SIZE = 2;
const closers: { close(): Promise<void> }[] = [];

afterAll(async () => {
  // Clients first, so that their streams end before the servers close.
  for (const each of closers.reverse()) await each.close();
});

/** A v1 client on the fixture, with the notifications it received collected by method. */
async function open(kind: "stdio" | "http") {
  let transport: StdioClientTransport | StreamableHTTPClientTransport;
  let exchanges: Recorded[] = [];
  if (kind === "stdio") {
    transport = new StdioClientTransport(resourcesFixture({ PICO_PAGE_SIZE: String(PAGE_SIZE) }));
  } else {
    const listening = await makeResourcesServer({ pageSize: PAGE_SIZE }).serve({ port: 0 });
    closers.push(listening);
    const recorded = recordingFetch();
    exchanges = recorded.exchanges;
    transport = new StreamableHTTPClientTransport(new URL(listening.url), { fetch: recorded.fetch });
  }
  const wire = tap(transport);
  const client = new Client({ name: `v1-resources-${kind}`, version: "1.0.0" });
  const seen: Record<string, Message[]> = { tools: [], resources: [], prompts: [], updated: [], log: [] };
  const collect = (kind: string) => (notification: unknown) => {
    seen[kind]!.push(notification as Message);
  };
  client.setNotificationHandler(ToolListChangedNotificationSchema, collect("tools"));
  client.setNotificationHandler(ResourceListChangedNotificationSchema, collect("resources"));
  client.setNotificationHandler(PromptListChangedNotificationSchema, collect("prompts"));
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, collect("updated"));
  client.setNotificationHandler(LoggingMessageNotificationSchema, collect("log"));
  await client.connect(transport);
  closers.push(client);
  return { client, wire, seen, exchanges };
}

const textOf = (result: unknown) => (result as { content: { text: string }[] }).content[0]!.text;

describe.each(["stdio", "http"] as const)("v1 client over %s", (kind) => {
  let client: Client;
  let wire: Wire;
  let seen: Record<string, Message[]>;
  let exchanges: Recorded[];

  beforeAll(async () => {
    ({ client, wire, seen, exchanges } = await open(kind));
  });

  const change = (action: string, key: string) => client.callTool({ name: "change", arguments: { action, key } });
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (error: unknown) => error,
    );

  describe("resources", () => {
    it("advertises resources with subscribe and listChanged, prompts, completions and logging", () => {
      expect(client.getServerCapabilities()).toEqual({
        logging: {},
        tools: { listChanged: true },
        resources: { subscribe: true, listChanged: true },
        prompts: { listChanged: true },
        completions: {},
      });
    });

    it("pages resources/list in registration order, a template's list in its place", async () => {
      const pages: { uri: string }[][] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listResources(cursor ? { cursor } : undefined);
        pages.push(page.resources);
        cursor = page.nextCursor;
      } while (cursor);
      expect(pages.map((page) => page.length)).toEqual([2, 2, 2]);
      const resources = pages.flat();
      expect(resources.map((resource) => resource.uri)).toEqual(LISTED_URIS);
      expect(resources[0]).toEqual(README);
      // The template's own mimeType goes with the resources its list gives.
      expect(resources[1]).toEqual({
        uri: "users://ada/profile",
        name: "Ada Lovelace",
        title: "Ada Lovelace's profile",
        mimeType: "application/json",
      });
    });

    it("pages resources/templates/list in registration order", async () => {
      const templates: { uriTemplate: string }[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listResourceTemplates(cursor ? { cursor } : undefined);
        templates.push(...page.resourceTemplates);
        cursor = page.nextCursor;
      } while (cursor);
      expect(templates.map((template) => template.uriTemplate)).toEqual(TEMPLATES);
      expect(templates[0]).toEqual(USER_TEMPLATE);
    });

    it("reads text, bytes as a base64 blob, and several contents items", async () => {
      expect(await client.readResource({ uri: "docs://readme" })).toEqual({
        contents: [{ uri: "docs://readme", mimeType: "text/markdown", text: README_TEXT }],
      });
      expect(await client.readResource({ uri: "files://logo.png" })).toEqual({
        contents: [{ uri: "files://logo.png", mimeType: "image/png", blob: PNG_BASE64 }],
      });
      expect(await client.readResource({ uri: "bundle://report" })).toEqual({
        contents: [
          { uri: "bundle://report/summary", mimeType: "text/plain", text: "Sales rose 12%." },
          {
            uri: "bundle://report/chart.png",
            mimeType: "image/png",
            blob: PNG_BASE64,
            _meta: { "com.example/kind": "chart" },
          },
        ],
      });
    });

    it("reads templates with their variables: simple, query and reserved expansions, percent-decoded", async () => {
      const text = async (uri: string) => {
        const { contents } = await client.readResource({ uri });
        expect(contents[0]!.uri).toBe(uri);
        return (contents[0] as { text: string }).text;
      };
      expect(await text("users://ada/profile")).toBe('{"id":"ada","name":"Ada Lovelace"}');
      expect(await text("search://issues?limit=5&q=memory%20leak")).toBe('{"q":"memory leak","limit":"5"}');
      expect(await text("search://issues")).toBe('{"q":null,"limit":null}');
      expect(await text("file:///src/my%20app/index.ts")).toBe("the file at src/my app/index.ts");
      expect(await text("repos://acme/app")).toBe("acme/app");
    });

    it("answers an unknown URI, and a template id that names nothing, with -32002 and data.uri", async () => {
      for (const uri of ["nothing://here", "users://nobody/profile"]) {
        const error = await failure(client.readResource({ uri }));
        expect(error).toBeInstanceOf(McpError);
        expect(error).toMatchObject({ code: -32002, data: { uri } });
        expect((error as Error).message).toContain(`Resource not found: ${uri}.`);
      }
    });
  });

  describe("prompts", () => {
    it("pages prompts/list in registration order, arguments read off the schema", async () => {
      const first = await client.listPrompts();
      expect(first.prompts).toHaveLength(2);
      const second = await client.listPrompts({ cursor: first.nextCursor });
      expect(second.nextCursor).toBeUndefined();
      const prompts = [...first.prompts, ...second.prompts];
      expect(prompts.map((prompt) => prompt.name)).toEqual(PROMPT_NAMES);
      expect(prompts[1]).toEqual(CODE_REVIEW);
    });

    it("gets a prompt as messages built with the helpers", async () => {
      expect(await client.getPrompt({ name: "greet" })).toEqual({
        messages: [{ role: "user", content: { type: "text", text: "Say hello to the user." } }],
      });
      expect(
        await client.getPrompt({
          name: "code_review",
          arguments: { language: "Go", code: "x := f()", focus: "errors" },
        }),
      ).toEqual(CODE_REVIEW_RESULT);
      expect(await client.getPrompt({ name: "describe_image" })).toEqual({
        messages: [
          { role: "user", content: { type: "image", data: PNG_BASE64, mimeType: "image/png" } },
          {
            role: "user",
            content: {
              type: "resource",
              resource: { uri: "docs://readme", text: README_TEXT, mimeType: "text/markdown" },
            },
          },
          { role: "user", content: { type: "text", text: "Describe the image.", annotations: { priority: 1 } } },
        ],
      });
    });

    it("answers invalid arguments with -32602 naming the field, and an unknown prompt with -32602", async () => {
      const invalid = await failure(client.getPrompt({ name: "code_review", arguments: { language: "Go" } }));
      expect(invalid).toBeInstanceOf(McpError);
      expect(invalid).toMatchObject({ code: -32602 });
      expect((invalid as Error).message).toContain(MISSING_CODE);
      expect(await failure(client.getPrompt({ name: "nope" }))).toMatchObject({ code: -32602 });
    });
  });

  describe("completion/complete", () => {
    it("completes a prompt argument to the typed prefix", async () => {
      const result = await client.complete({
        ref: { type: "ref/prompt", name: "code_review" },
        argument: { name: "language", value: "j" },
      });
      expect(result.completion).toEqual({ values: ["Java", "JavaScript", "Julia"], total: 3, hasMore: false });
    });

    it("completes a template variable with the context arguments", async () => {
      const ref = { type: "ref/resource" as const, uri: "repos://{owner}/{repo}" };
      const acme = await client.complete({
        ref,
        argument: { name: "repo", value: "a" },
        context: { arguments: { owner: "acme" } },
      });
      expect(acme.completion).toEqual({ values: ["app", "api"], total: 2, hasMore: false });
      const globex = await client.complete({
        ref,
        argument: { name: "repo", value: "a" },
        context: { arguments: { owner: "globex" } },
      });
      expect(globex.completion.values).toEqual(["apollo"]);
      const ids = await client.complete({
        ref: { type: "ref/resource", uri: "users://{id}/profile" },
        argument: { name: "id", value: "a" },
      });
      expect(ids.completion.values).toEqual(["ada", "alan"]);
    });

    it("caps the values at 100, with the total and hasMore", async () => {
      const result = await client.complete({
        ref: { type: "ref/resource", uri: "numbers://{n}" },
        argument: { name: "n", value: "" },
      });
      expect(result.completion).toEqual({ values: NUMBERS.slice(0, 100), total: 150, hasMore: true });
    });
  });

  describe("logging and progress", () => {
    const levels = () => seen.log!.map((message) => (message.params as { level: string }).level);

    it("logs info and above before any setLevel, then follows logging/setLevel", async () => {
      await client.callTool({ name: "log" });
      expect(levels()).toEqual(LEVELS.slice(1));
      expect(seen.log![0]!.params).toEqual({
        level: "info",
        logger: "fixture",
        data: { level: "info", note: "a info message" },
      });
      seen.log = [];
      expect(await client.setLoggingLevel("error")).toEqual({});
      await client.callTool({ name: "log" });
      expect(levels()).toEqual(["error", "critical", "alert", "emergency"]);
      const invalid = await failure(client.setLoggingLevel("verbose" as "error"));
      expect(invalid).toMatchObject({ code: -32602 });
    });

    it("sends increasing progress with the caller's token, only while the request runs", async () => {
      const reports: unknown[] = [];
      const result = await client.callTool({ name: "progress", arguments: { steps: 3 } }, undefined, {
        onprogress: (progress) => reports.push(progress),
      });
      expect(textOf(result)).toBe("counted to 3");
      const request = wire.sent.findLast((message) => message.method === "tools/call")!;
      const token = (request.params!._meta as { progressToken: unknown }).progressToken;
      expect(progressOn(wire, request.id!)).toEqual(STEPS.map((step) => ({ progressToken: token, ...step })));
      expect(reports).toEqual(STEPS.slice(0, reports.length));
      // The report the tool tries after its response never reaches the wire.
      expect(textOf(await client.callTool({ name: "late_progress" }))).toBe("the late report was attempted");
      expect(wire.received.filter((message) => message.method === "notifications/progress")).toHaveLength(3);
    });

    it("sends no progress to a caller that gave no token", async () => {
      const before = wire.received.length;
      await client.callTool({ name: "progress", arguments: { steps: 2 } });
      await client.callTool({ name: "late_progress" });
      expect(wire.received.slice(before).filter((message) => message.method === "notifications/progress")).toEqual([]);
    });
  });

  describe("change notifications", () => {
    it("sends list_changed for tools, resources and prompts added or removed after start", async () => {
      const steps: [string, string, string][] = [
        ["add_tool", "extra_tool", "tools"],
        ["add_resource", "docs://extra", "resources"],
        ["add_prompt", "extra_prompt", "prompts"],
        ["remove_tool", "extra_tool", "tools"],
        ["remove_resource", "docs://extra", "resources"],
        ["remove_prompt", "extra_prompt", "prompts"],
      ];
      for (const [action, key, list] of steps) {
        const before = seen[list]!.length;
        await change(action, key);
        await until(() => expect(seen[list]!.length).toBe(before + 1));
      }
      expect(seen.tools!.at(-1)).toEqual({ method: "notifications/tools/list_changed" });
    });

    it("shows the changed lists", async () => {
      await change("add_tool", "later_tool");
      await change("add_resource", "docs://later");
      const names: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor ? { cursor } : undefined);
        names.push(...page.tools.map((tool) => tool.name));
        cursor = page.nextCursor;
      } while (cursor);
      const uris: string[] = [];
      do {
        const page = await client.listResources(cursor ? { cursor } : undefined);
        uris.push(...page.resources.map((resource) => resource.uri));
        cursor = page.nextCursor;
      } while (cursor);
      expect(names.at(-1)).toBe("later_tool");
      expect(uris.at(-1)).toBe("docs://later");
    });

    it("delivers resources/updated for subscribed URIs and what is under them, and stops after unsubscribe", async () => {
      const updated = () => seen.updated!.map((message) => (message.params as { uri: string }).uri);
      expect(await client.subscribeResource({ uri: "docs://readme" })).toEqual({});
      await change("updated", "docs://readme");
      await change("updated", "docs://other");
      await change("updated", "docs://readme/section");
      await until(() => expect(updated()).toEqual(["docs://readme", "docs://readme/section"]));
      expect(await client.unsubscribeResource({ uri: "docs://readme" })).toEqual({});
      await change("updated", "docs://readme");
      // Notifications keep their order: once this later one arrives, the earlier one would have too.
      await client.subscribeResource({ uri: "users://ada/profile" });
      await change("updated", "users://ada/profile");
      await until(() => expect(updated().at(-1)).toBe("users://ada/profile"));
      expect(updated()).toEqual(["docs://readme", "docs://readme/section", "users://ada/profile"]);
      expect(seen.updated![0]).toEqual({ method: "notifications/resources/updated", params: { uri: "docs://readme" } });
    });

    if (kind === "http")
      it("delivers them on the session's GET stream", () => {
        const get = exchanges.filter((exchange) => exchange.method === "GET");
        expect(get.length).toBeGreaterThan(0);
        const methods = get.flatMap((exchange) => sseMessages(exchange.text).map((message) => message.method));
        expect(methods).toEqual(
          expect.arrayContaining([
            "notifications/tools/list_changed",
            "notifications/resources/list_changed",
            "notifications/prompts/list_changed",
            "notifications/resources/updated",
          ]),
        );
      });
  });
});
