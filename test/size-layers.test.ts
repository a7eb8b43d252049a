/**
 * The bytes each layer adds when a program uses it, for README's "Performance and size" (issue 14,
 * "Must measure": the bytes each layer adds when used). Printed and written to
 * bench/results/layer-sizes.json, with no ceiling: the ceilings are test/size.test.ts's.
 *
 * Each row is a program of test/size/layers/: the listing's server (weather.ts) plus one layer,
 * built as test/size.test.ts builds its rows (esbuild, code splitting, minified, zod and Node
 * built-ins external), run with Node under the same loading hooks, and driven by clients that use
 * the layer, each answer checked. What is counted is what Node loaded, gzipped (level 9) as one
 * text, the fixture's own code included. A row's figure is its program's count less its base's:
 * the stdio base for the layers a stdio server can use, the HTTP base (2026-07-28 requests only)
 * for the two that only HTTP has.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { join, relative } from "node:path";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { afterAll, describe, expect, it } from "vitest";
import { META } from "../src/core/types.js";
import { testIssuer } from "../src/testing/issuer.js";
import { modernMessage } from "./http-helpers.js";
import {
  announcedUrl,
  httpClients,
  LineClient,
  type Message,
  type Program,
  post,
  ROOT,
  runRecordingLoads,
  type Stop,
  type WrittenBuild,
  writeBuild,
} from "./size-helpers.js";

/** The build of test/size.test.ts (`build_`), split, one program at a time. */
function splitBuild(entry: string) {
  return build({
    entryPoints: [entry],
    splitting: true,
    outdir: "size-out",
    absWorkingDir: ROOT,
    bundle: true,
    minify: true,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    external: ["zod", "zod/*", "node:*", ...builtinModules],
    metafile: true,
    write: false,
    logLevel: "silent",
  });
}

interface Run {
  drive: (program: Program) => Promise<void>;
  stop: Stop;
}

const FIXTURES = "test/size/layers";

const expectText = (answer: Message | undefined, text: string) =>
  expect(answer, JSON.stringify(answer)).toMatchObject({ result: { content: [{ type: "text", text }] } });

/** A 2025-11-25 session over stdio doing what the base's client does (initialize, tools/list, tools/call), then `more`. */
type More = (client: LineClient, program: Program) => Promise<void>;

function legacyStdio(more?: More, capabilities: Message = {}): Run {
  return {
    stop: "stdin",
    drive: async (program) => {
      const client = new LineClient(program);
      const clientInfo = { name: "layer-sizes", version: "1.0.0" };
      const params = { protocolVersion: "2025-11-25", capabilities, clientInfo };
      const initialized = await client.request({ jsonrpc: "2.0", id: 1, method: "initialize", params });
      expect(initialized).toMatchObject({ result: { protocolVersion: "2025-11-25" } });
      client.notify({ jsonrpc: "2.0", method: "notifications/initialized" });
      const listed = await client.request({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} });
      expect(listed).toMatchObject({
        result: { tools: expect.arrayContaining([expect.objectContaining({ name: "forecast" })]) },
      });
      const call = { name: "forecast", arguments: { city: "Oslo", days: 1 } };
      expectText(
        await client.request({ jsonrpc: "2.0", id: 3, method: "tools/call", params: call }),
        "Oslo:\ntoday: snow, -6 to -1 °C",
      );
      await more?.(client, program);
    },
  };
}

/** A 2026-07-28 client over stdio doing what the base's client does (server/discover, tools/call), then `more`. */
function modernStdio(more?: More): Run {
  return {
    stop: "stdin",
    drive: async (program) => {
      const client = new LineClient(program);
      const discovered = await client.request(modernMessage("server/discover", {}, 11).body);
      expect(discovered).toMatchObject({ result: { capabilities: { tools: expect.any(Object) } } });
      const call = modernMessage("tools/call", { name: "forecast", arguments: { city: "Oslo", days: 1 } }, 12);
      expectText(await client.request(call.body), "Oslo:\ntoday: snow, -6 to -1 °C");
      await more?.(client, program);
    },
  };
}

/** Both stdio clients, each doing `legacy` or `modern` after the base's exchanges. */
function stdioRuns(legacy?: More, modern?: More, capabilities?: Message): Run[] {
  return [legacyStdio(legacy, capabilities), modernStdio(modern)];
}

const readCities = async (client: LineClient, message: Message) =>
  expect(await client.request(message)).toMatchObject({ result: { contents: [{ text: "Lisbon, Oslo" }] } });

const getPrompt = async (client: LineClient, message: Message) =>
  expect(await client.request(message)).toMatchObject({
    result: { messages: [{ role: "user", content: { text: expect.stringContaining("what to pack") } }] },
  });

const BOOKED = "Booked 3 nights in Lisbon.";

/** 2026-07-28 HTTP requests doing what the base's client does: server/discover and tools/call. */
function modernHttp(headers: () => Record<string, string> = () => ({})): Run {
  return {
    stop: "SIGTERM",
    drive: async (program) => {
      const url = await announcedUrl(program);
      const discover = modernMessage("server/discover", {}, 11);
      const discovered = await post(url, discover.body, { ...discover.headers, ...headers() });
      expect(discovered.message).toMatchObject({ result: { capabilities: { tools: expect.any(Object) } } });
      const call = modernMessage("tools/call", { name: "forecast", arguments: { city: "Oslo", days: 1 } }, 12);
      expectText(
        (await post(url, call.body, { ...call.headers, ...headers() })).message,
        "Oslo:\ntoday: snow, -6 to -1 °C",
      );
    },
  };
}

/** The bearer token of the auth row, minted in this process by an in-memory issuer. */
let token = "";
const issuer = testIssuer({ issuer: "https://auth.test", audience: "api://weather" });

interface Row {
  layer: string;
  entry: string;
  /** The row whose count this one's is compared with; none for a base. */
  base?: string;
  runs: Run[];
  /** Files the program reads from its folder. */
  files?: () => Promise<Record<string, string>>;
  /** Source modules of other layers that the program must not load: each layer loads only its own. */
  absent?: string[];
}

const RESOURCES_RUN = ["src/resources/run.ts", "src/resources/uri-template.ts"];
/** The caller checks: none of these programs has an `auth` rule, so none loads them. */
const CALLER_CHECKS = "src/auth/enforce.ts";
const PROMPTS_RUN = ["src/prompts/run.ts"];
const LISTEN_RUN = ["src/listen/listen.ts"];

const STDIO_BASE = "the listing's stdio server (base)";
const HTTP_BASE = "the listing's HTTP server, 2026-07-28 requests only (base)";

const ROWS: Row[] = [
  { layer: STDIO_BASE, entry: "stdio.ts", runs: stdioRuns() },
  {
    layer: "a resource (`.resource()`, read in both eras)",
    entry: "resource.ts",
    base: STDIO_BASE,
    absent: [...PROMPTS_RUN, ...LISTEN_RUN, CALLER_CHECKS],
    runs: stdioRuns(
      (client) =>
        readCities(client, { jsonrpc: "2.0", id: 4, method: "resources/read", params: { uri: "weather://cities" } }),
      (client) => readCities(client, modernMessage("resources/read", { uri: "weather://cities" }, 13).body),
    ),
  },
  {
    layer: "a prompt (`.prompt()`, got in both eras)",
    entry: "prompt.ts",
    base: STDIO_BASE,
    absent: [...RESOURCES_RUN, ...LISTEN_RUN, CALLER_CHECKS],
    runs: stdioRuns(
      (client) => getPrompt(client, { jsonrpc: "2.0", id: 4, method: "prompts/get", params: { name: "packing_list" } }),
      (client) => getPrompt(client, modernMessage("prompts/get", { name: "packing_list" }, 13).body),
    ),
  },
  {
    layer: "asking the client (`ctx.elicit` in a tool, answered in both eras)",
    entry: "elicit.ts",
    base: STDIO_BASE,
    runs: stdioRuns(
      async (client) => {
        const call = {
          jsonrpc: "2.0",
          id: 4,
          method: "tools/call",
          params: { name: "book_trip", arguments: { city: "Lisbon" } },
        };
        const answer = client.request(call);
        const question = await client.waitFor(
          (message) => message.method === "elicitation/create",
          "elicitation/create",
        );
        client.notify({ jsonrpc: "2.0", id: question.id, result: { action: "accept", content: { nights: 3 } } });
        expectText(await answer, BOOKED);
      },
      async (client) => {
        const capabilities = { _meta: { [META.clientCapabilities]: { elicitation: {} } } };
        const params = { name: "book_trip", arguments: { city: "Lisbon" }, ...capabilities };
        const first = await client.request(modernMessage("tools/call", params, 13).body);
        const { inputRequests, requestState } = (first.result ?? {}) as {
          inputRequests?: Message;
          requestState?: string;
        };
        expect(first.result).toMatchObject({ resultType: "input_required" });
        const [key] = Object.keys(inputRequests ?? {});
        const inputResponses = { [key!]: { action: "accept", content: { nights: 3 } } };
        expectText(
          await client.request(modernMessage("tools/call", { ...params, inputResponses, requestState }, 14).body),
          BOOKED,
        );
      },
      { elicitation: {} },
    ),
  },
  {
    layer: "`subscriptions/listen` (2026-07-28), ended by the server's shutdown",
    entry: "stdio.ts",
    base: STDIO_BASE,
    absent: [...RESOURCES_RUN, ...PROMPTS_RUN, "src/completion/completion.ts", CALLER_CHECKS],
    runs: stdioRuns(undefined, async (client) => {
      client.notify(modernMessage("subscriptions/listen", { notifications: { toolsListChanged: true } }, 13).body);
      const acknowledged = await client.waitFor(
        (message) => message.method === "notifications/subscriptions/acknowledged",
        "notifications/subscriptions/acknowledged",
      );
      expect(acknowledged).toMatchObject({ params: { notifications: { toolsListChanged: true } } });
    }),
  },
  {
    layer: "middleware (`server.use(fn)` around every request)",
    entry: "middleware.ts",
    base: STDIO_BASE,
    runs: stdioRuns(async (client, program) => {
      await client.request({ jsonrpc: "2.0", id: 4, method: "ping" });
      expect(program.stderr()).toContain("tools/call answered");
    }),
  },
  { layer: HTTP_BASE, entry: "http.ts", runs: [modernHttp()] },
  {
    layer: "Streamable HTTP instead of stdio (the HTTP base over the stdio base)",
    entry: "http.ts",
    base: STDIO_BASE,
    runs: [modernHttp()],
  },
  {
    layer: "2025-11-25 HTTP sessions (a session: initialize, tools/list, tools/call)",
    entry: "http.ts",
    base: HTTP_BASE,
    runs: [{ drive: httpClients, stop: "SIGTERM" }],
  },
  {
    layer: "authorization with `picomcp/jwt` (a 401 challenge, then a bearer token)",
    entry: "jwt.ts",
    base: HTTP_BASE,
    files: async () => ({ "jwks.json": JSON.stringify((await issuer).jwks) }),
    runs: [
      {
        stop: "SIGTERM",
        drive: async (program) => {
          const url = await announcedUrl(program);
          const call = modernMessage("tools/call", { name: "forecast", arguments: { city: "Oslo", days: 1 } }, 10);
          const refused = await post(url, call.body, call.headers);
          expect(refused.status).toBe(401);
          expect(refused.headers.get("www-authenticate")).toMatch(/^Bearer resource_metadata=/);
        },
      },
      modernHttp(() => ({ authorization: `Bearer ${token}` })),
    ],
  },
];

const written: WrittenBuild[] = [];
afterAll(() => {
  for (const folder of written) folder.dispose();
});

/** Gzipped bytes of what the program of `row` loaded while its clients drove it. */
async function loadedBytes(row: Row): Promise<number> {
  const result = await splitBuild(join(FIXTURES, row.entry));
  const folder = writeBuild(result.outputFiles);
  written.push(folder);
  for (const [name, text] of Object.entries((await row.files?.()) ?? {})) writeFileSync(join(folder.dir, name), text);
  const entry = Object.keys(result.metafile.outputs).find(
    (path) => result.metafile.outputs[path]?.entryPoint === join(FIXTURES, row.entry),
  );
  expect(entry, "the build's entry chunk").toBeDefined();
  const loaded = new Set<string>();
  for (const run of row.runs) for (const path of await runRecordingLoads(folder, entry!, run)) loaded.add(path);
  for (const path of loaded) expect(result.metafile.outputs, `Node loaded ${path}`).toHaveProperty([path]);
  const sources = [...loaded].flatMap((path) => Object.keys(result.metafile.outputs[path]?.inputs ?? {}));
  for (const module of row.absent ?? []) expect(sources, `${row.layer} loads no ${module}`).not.toContain(module);
  const files = result.outputFiles.filter((file) => loaded.has(relative(ROOT, file.path)));
  return gzipSync(Buffer.concat(files.map((file) => file.contents)), { level: 9 }).length;
}

describe("the bytes each layer adds when used (gzip, library and fixture code loaded)", () => {
  it("measures each layer's program against its base, each answering its clients", async () => {
    token = await (await issuer).mint({ subject: "layer-sizes", audience: "api://weather" });
    const bytes = new Map<string, number>();
    const rows: { layer: string; loaded: number; base?: string; added?: number }[] = [];
    for (const row of ROWS) {
      const loaded = await loadedBytes(row);
      if (!row.base) bytes.set(row.layer, loaded);
      const base = row.base === undefined ? undefined : bytes.get(row.base);
      rows.push({ layer: row.layer, loaded, base: row.base, added: base === undefined ? undefined : loaded - base });
    }
    const results = join(ROOT, "bench/results");
    mkdirSync(results, { recursive: true });
    const saved = join(results, "layer-sizes.json");
    writeFileSync(saved, `${JSON.stringify({ date: new Date().toISOString(), rows }, null, 2)}\n`);
    console.log(
      `[size] bytes each layer adds when used (written to ${relative(ROOT, saved)}):\n${rows
        .map((row) =>
          row.added === undefined
            ? `  ${row.layer}: ${row.loaded} B gzip loaded`
            : `  ${row.layer}: +${row.added} B gzip (${row.loaded} B loaded)`,
        )
        .join("\n")}`,
    );
  }, 60_000);
});
