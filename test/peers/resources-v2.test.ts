/**
 * The official v2 client (@modelcontextprotocol/client, 2026-07-28: stateless, the `_meta` envelope
 * on every request) drives test/fixtures/resources-server.ts over stdio (a child process) and over
 * Streamable HTTP (`serve({ port: 0 })`): resources, templates, prompts, completions, per-request
 * logging, progress, and change notifications through `subscriptions/listen`.
 */
import {
  Client,
  ProtocolError,
  ResourceNotFoundError,
  StreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
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
  SUBSCRIPTION_ID,
  tagOf,
  tap,
  USER_TEMPLATE,
  until,
  type Wire,
} from "./resources-helpers.js";

const PAGE_SIZE = 2;
const SERVER_INFO_META = { "io.modelcontextprotocol/serverInfo": { name: "resources-fixture", version: "1.0.0" } };
const EVERYTHING = {
  toolsListChanged: true,
  promptsListChanged: true,
  resourcesListChanged: true,
  resourceSubscriptions: ["docs://readme"],
};

/** A subclass probes on its own pipe: the SDK spawns a throw-away sibling only for its base transport. */
class Stdio extends StdioClientTransport {}

const closers: { close(): Promise<void> }[] = [];

afterAll(async () => {
  // Clients first, so that their streams end before the servers close.
  for (const each of closers.reverse()) await each.close();
});

type Kind = "stdio" | "http";

/** A v2 client in the 2026-07-28 era on a fixture of its own, with the notifications it got, by method. */
async function open(kind: Kind, options: { toolsOnly?: boolean } = {}) {
  let transport: StdioClientTransport | StreamableHTTPClientTransport;
  let exchanges: Recorded[] = [];
  const server = makeResourcesServer({ pageSize: PAGE_SIZE, toolsOnly: options.toolsOnly });
  if (kind === "stdio") {
    const env: Record<string, string> = { PICO_PAGE_SIZE: String(PAGE_SIZE) };
    if (options.toolsOnly) env.PICO_TOOLS_ONLY = "1";
    transport = new Stdio(resourcesFixture(env));
  } else {
    const listening = await server.serve({ port: 0 });
    closers.push(listening);
    const recorded = recordingFetch();
    exchanges = recorded.exchanges;
    transport = new StreamableHTTPClientTransport(new URL(listening.url), { fetch: recorded.fetch as typeof fetch });
  }
  const wire = tap(transport);
  const client = new Client(
    { name: `v2-resources-${kind}`, version: "2.0.0" },
    { versionNegotiation: { mode: "auto" } },
  );
  const seen: Record<string, Message[]> = {};
  for (const method of [
    "notifications/tools/list_changed",
    "notifications/prompts/list_changed",
    "notifications/resources/list_changed",
    "notifications/resources/updated",
    "notifications/message",
  ] as const) {
    seen[method] = [];
    client.setNotificationHandler(method, (notification) => {
      seen[method]!.push(notification as unknown as Message);
    });
  }
  await client.connect(transport);
  closers.push(client);
  return { client, wire, seen, exchanges, server };
}

const textOf = (result: unknown) => (result as { content: { text: string }[] }).content[0]!.text;
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describe.each(["stdio", "http"] as const)("v2 client over %s", (kind) => {
  let client: Client;
  let wire: Wire;
  let seen: Record<string, Message[]>;
  let exchanges: Recorded[];

  beforeAll(async () => {
    ({ client, wire, seen, exchanges } = await open(kind));
  });

  const change = (action: string, key: string) => client.callTool({ name: "change", arguments: { action, key } });
  /** The result of the last response on the wire. */
  const lastResult = () => wire.received.findLast((message) => "result" in message)!.result!;

  describe("resources", () => {
    it("is in the 2026-07-28 era, with resources, prompts, completions and logging advertised", () => {
      expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
      expect(client.getDiscoverResult()?.capabilities).toEqual({
        logging: {},
        tools: { listChanged: true },
        resources: { subscribe: true, listChanged: true },
        prompts: { listChanged: true },
        completions: {},
      });
    });

    it("walks every page of resources/list, in registration order, each page cacheable", async () => {
      const before = wire.received.length;
      const { resources } = await client.listResources();
      expect(resources.map((resource) => resource.uri)).toEqual(LISTED_URIS);
      expect(resources[0]).toEqual(README);
      const pages = wire.received.slice(before).filter((message) => "result" in message);
      expect(pages).toHaveLength(3);
      for (const page of pages) {
        expect(page.result).toMatchObject({
          resultType: "complete",
          ttlMs: 0,
          cacheScope: "private",
          _meta: SERVER_INFO_META,
        });
      }
    });

    it("lists the templates in registration order", async () => {
      const { resourceTemplates } = await client.listResourceTemplates();
      expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual(TEMPLATES);
      expect(resourceTemplates[0]).toEqual(USER_TEMPLATE);
    });

    it("reads text, bytes as a base64 blob, and several contents items", async () => {
      expect((await client.readResource({ uri: "docs://readme" })).contents).toEqual([
        { uri: "docs://readme", mimeType: "text/markdown", text: README_TEXT },
      ]);
      expect(lastResult()).toMatchObject({ resultType: "complete", ttlMs: 0, cacheScope: "private" });
      expect((await client.readResource({ uri: "files://logo.png" })).contents).toEqual([
        { uri: "files://logo.png", mimeType: "image/png", blob: PNG_BASE64 },
      ]);
      expect((await client.readResource({ uri: "bundle://report" })).contents).toEqual([
        { uri: "bundle://report/summary", mimeType: "text/plain", text: "Sales rose 12%." },
        {
          uri: "bundle://report/chart.png",
          mimeType: "image/png",
          blob: PNG_BASE64,
          _meta: { "com.example/kind": "chart" },
        },
      ]);
    });

    it("reads templates with their variables: simple, query and reserved expansions, percent-decoded", async () => {
      const text = async (uri: string) => ((await client.readResource({ uri })).contents[0] as { text: string }).text;
      expect(await text("users://grace/profile")).toBe('{"id":"grace","name":"Grace Hopper"}');
      expect(await text("search://issues?q=a%2Bb&limit=2")).toBe('{"q":"a+b","limit":"2"}');
      expect(await text("search://issues")).toBe('{"q":null,"limit":null}');
      expect(await text("file:///docs/read%20me.md")).toBe("the file at docs/read me.md");
    });

    it("answers an unknown URI, and a template id that names nothing, with -32602 and data.uri", async () => {
      for (const uri of ["nothing://here", "users://nobody/profile"]) {
        const error = await failure(client.readResource({ uri }));
        expect(error).toBeInstanceOf(ResourceNotFoundError);
        expect(error).toMatchObject({ code: -32602, data: { uri } });
      }
    });
  });

  describe("prompts and completions", () => {
    it("lists every prompt in registration order", async () => {
      const { prompts } = await client.listPrompts();
      expect(prompts.map((prompt) => prompt.name)).toEqual(PROMPT_NAMES);
      expect(prompts[1]).toEqual(CODE_REVIEW);
    });

    it("gets a prompt, and answers invalid arguments with -32602 naming the field", async () => {
      const result = await client.getPrompt({
        name: "code_review",
        arguments: { language: "Go", code: "x := f()", focus: "errors" },
      });
      expect(result).toEqual({ ...CODE_REVIEW_RESULT, _meta: SERVER_INFO_META });
      expect(lastResult()).toEqual({ ...CODE_REVIEW_RESULT, resultType: "complete", _meta: SERVER_INFO_META });
      const invalid = await failure(client.getPrompt({ name: "code_review", arguments: { language: "Go" } }));
      expect(invalid).toBeInstanceOf(ProtocolError);
      expect(invalid).toMatchObject({ code: -32602, message: expect.stringContaining(MISSING_CODE) });
    });

    it("completes prompt arguments and template variables, with context and the 100 cap", async () => {
      const language = await client.complete({
        ref: { type: "ref/prompt", name: "code_review" },
        argument: { name: "language", value: "TY" },
      });
      expect(language.completion).toEqual({ values: ["TypeScript"], total: 1, hasMore: false });
      const repo = await client.complete({
        ref: { type: "ref/resource", uri: "repos://{owner}/{repo}" },
        argument: { name: "repo", value: "" },
        context: { arguments: { owner: "globex" } },
      });
      expect(repo.completion).toEqual({ values: ["apollo", "site"], total: 2, hasMore: false });
      const numbers = await client.complete({
        ref: { type: "ref/resource", uri: "numbers://{n}" },
        argument: { name: "n", value: "" },
      });
      expect(numbers.completion).toEqual({ values: NUMBERS.slice(0, 100), total: 150, hasMore: true });
    });
  });

  describe("logging and progress", () => {
    const logged = () => wire.received.filter((message) => message.method === "notifications/message");

    it("sends no log messages to a request without a log level", async () => {
      const before = logged().length;
      expect(textOf(await client.callTool({ name: "log" }))).toBe("logged");
      expect(logged()).toHaveLength(before);
    });

    it("sends the request's log level and above, on that request", async () => {
      await client.callTool({ name: "log", _meta: { "io.modelcontextprotocol/logLevel": "warning" } });
      expect(seen["notifications/message"]!.map((message) => (message.params as { level: string }).level)).toEqual(
        LEVELS.slice(3),
      );
      expect(seen["notifications/message"]![0]!.params).toEqual({
        level: "warning",
        logger: "fixture",
        data: { level: "warning", note: "a warning message" },
      });
    });

    it("sends increasing progress with the caller's token, none after the response and none without a token", async () => {
      const progress = () => wire.received.filter((message) => message.method === "notifications/progress");
      const reports: unknown[] = [];
      const result = await client.callTool(
        { name: "progress", arguments: { steps: 3 } },
        { onprogress: (update) => reports.push(update) },
      );
      expect(textOf(result)).toBe("counted to 3");
      const request = wire.sent.findLast((message) => message.method === "tools/call")!;
      const token = request.params!._meta!.progressToken;
      expect(token).toBeDefined();
      expect(progressOn(wire, request.id!)).toEqual(STEPS.map((step) => ({ progressToken: token, ...step })));
      expect(reports).toEqual(STEPS.slice(0, reports.length));
      await client.callTool({ name: "late_progress" });
      await client.callTool({ name: "progress", arguments: { steps: 2 } });
      await client.callTool({ name: "late_progress" });
      expect(progress()).toHaveLength(3);
    });
  });

  describe("subscriptions/listen", () => {
    it("acknowledges first with the honoured filter, then sends only requested, tagged notifications", async () => {
      const subscription = await client.listen({ toolsListChanged: true, resourceSubscriptions: ["docs://readme"] });
      expect(subscription.honoredFilter).toEqual({ toolsListChanged: true, resourceSubscriptions: ["docs://readme"] });
      const request = wire.sent.findLast((message) => message.method === "subscriptions/listen")!;
      const mine = () => wire.received.filter((message) => tagOf(message) === request.id);
      expect(mine()[0]).toEqual({
        jsonrpc: "2.0",
        method: "notifications/subscriptions/acknowledged",
        params: {
          notifications: { toolsListChanged: true, resourceSubscriptions: ["docs://readme"] },
          _meta: { [SUBSCRIPTION_ID]: request.id },
        },
      });
      // Not requested: a prompt change; then requested ones, whose arrival bounds the wait.
      await change("add_prompt", "unheard_prompt");
      await change("updated", "docs://readme");
      await change("add_tool", "heard_tool");
      await until(() => expect(mine().map((message) => message.method)).toContain("notifications/tools/list_changed"));
      expect(mine().map((message) => message.method)).toEqual([
        "notifications/subscriptions/acknowledged",
        "notifications/resources/updated",
        "notifications/tools/list_changed",
      ]);
      expect(mine()[1]!.params).toEqual({ uri: "docs://readme", _meta: { [SUBSCRIPTION_ID]: request.id } });
      expect(seen["notifications/tools/list_changed"]!.length).toBeGreaterThan(0);
      // No change notification reaches the client untagged: 2026-07-28 has no unsolicited ones.
      const changes = wire.received.filter((message) => /list_changed|resources\/updated/.test(message.method ?? ""));
      for (const message of changes) expect(tagOf(message)).toEqual(expect.any(String));
      await subscription.close();
    });

    if (kind === "http")
      it("streams the listen response as SSE, the acknowledgement first", () => {
        const listen = exchanges.find((exchange) => (exchange.body as Message).method === "subscriptions/listen")!;
        expect(listen.contentType).toMatch(/^text\/event-stream/);
        expect(sseMessages(listen.text)[0]).toMatchObject({ method: "notifications/subscriptions/acknowledged" });
      });

    it("ends a subscription the client closes: nothing more is sent for it", async () => {
      const subscription = await client.listen({ promptsListChanged: true });
      const id = wire.sent.findLast((message) => message.method === "subscriptions/listen")!.id;
      await subscription.close();
      expect(await subscription.closed).toBe("local");
      await change("add_prompt", "after_close");
      // A second subscription hears the next change; by then the closed one would have heard it too.
      const witness = await client.listen({ promptsListChanged: true });
      const witnessId = wire.sent.findLast((message) => message.method === "subscriptions/listen")!.id;
      await change("remove_prompt", "after_close");
      await until(() =>
        expect(
          wire.received.some(
            (message) => tagOf(message) === witnessId && message.method !== "notifications/subscriptions/acknowledged",
          ),
        ).toBe(true),
      );
      const afterAck = wire.received.filter(
        (message) => tagOf(message) === id && message.method !== "notifications/subscriptions/acknowledged",
      );
      expect(afterAck).toEqual([]);
      if (kind === "stdio") {
        expect(wire.sent).toContainEqual(
          expect.objectContaining({
            method: "notifications/cancelled",
            params: expect.objectContaining({ requestId: id }),
          }),
        );
      }
      await witness.close();
    });
  });
});

describe.each(["stdio", "http"] as const)(
  "v2 client over %s: listen on a server without prompts or resources",
  (kind) => {
    it("honours only the supported types", async () => {
      const { client } = await open(kind, { toolsOnly: true });
      const subscription = await client.listen(EVERYTHING);
      expect(subscription.honoredFilter).toEqual({ toolsListChanged: true });
      await subscription.close();
    });
  },
);

describe.each(["stdio", "http"] as const)("v2 client over %s: server shutdown", (kind) => {
  it("ends open subscriptions gracefully, with their final result", async () => {
    const { client, wire, server } = await open(kind);
    const subscription = await client.listen(EVERYTHING);
    const id = wire.sent.findLast((message) => message.method === "subscriptions/listen")!.id;
    if (kind === "stdio") await client.callTool({ name: "shutdown" });
    else await server.close();
    expect(await subscription.closed).toBe("graceful");
    expect(wire.received.find((message) => message.id === id)).toEqual({
      jsonrpc: "2.0",
      id,
      result: { resultType: "complete", _meta: { ...SERVER_INFO_META, [SUBSCRIPTION_ID]: id } },
    });
  });
});
