/**
 * Size budgets (DESIGN §5; style.md rule 14, after zod's bundle-size tests and h3's bundle test).
 *
 * Each row of BUDGETS is bundled the way an application's bundler would bundle it: esbuild, minified,
 * ESM, platform neutral, target es2022 (as tsdown.config.ts), code splitting on, with the schema library
 * external, since the application pays for it whether or not it uses picomcp. picomcp loads code on
 * first use with dynamic imports (src/lazy.ts: resources, prompts, completions and listen at run time,
 * asking the client, auth checks; the HTTP transport on the first request; legacy sessions on the first
 * one), so a row counts what its program actually loads: the entry chunk and its static imports
 * (`loads: "static"`, a stdio server), those plus the chunks of the dynamic imports the program makes
 * (`loads: { dynamic: [...] }`, the source modules it imports on demand), or every chunk reachable
 * (`loads: "all"`, everything the library could ever load). Those chunks, concatenated and gzipped
 * (level 9), must stay at or under the row's ceiling. The module graph of every row is also checked
 * for Node built-in imports: only a row marked `nodeBuiltins: "allowed"` may have them.
 *
 * esbuild splits shared code into a chunk per set of entry points that reach it, so a split bundle
 * also carries import/export glue between its chunks (the log line prints it apart); it is counted,
 * since an application bundled with esbuild ships it.
 *
 * Rule: raise a ceiling only in the commit that needs it, and write the reason beside the number
 * (what grew, by how many bytes, and why it is worth it). Lower a ceiling whenever the code shrinks.
 *
 * New entries are new rows: a Node-only entry (src/node.ts, which may import node:http) gets
 * `nodeBuiltins: "allowed"`; Web entries (an HTTP fetch handler, a Workers fixture) keep "forbidden".
 * Fixtures live in test/size/ and import from src/, never from dist/.
 */
import { builtinModules } from "node:module";
import { relative } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";

interface Budget {
  /** What the bundle is, as printed in the test output. */
  name: string;
  /** The file to bundle, relative to the repository root. */
  entry: string;
  /** Gzipped bytes the bundle may not exceed. The reason for the number is written beside it. */
  ceiling: number;
  /** The DESIGN §5 target, where there is one; printed beside the measurement. */
  target?: number;
  /** Whether the bundle's module graph may import Node built-ins (`node:*`, `fs`, `http`, ...). */
  nodeBuiltins: "forbidden" | "allowed";
  /**
   * Which chunks the program loads: the static import graph of the entry; that plus the chunks of
   * the listed source modules, which the program imports on demand; or every reachable chunk.
   */
  loads: "static" | "all" | { dynamic: string[] };
}

/** What an HTTP server imports on demand: the listener and the HTTP endpoint on start, the node:http bridge. */
const HTTP_SERVER = ["src/transports/listen.ts", "src/transports/http/web.ts", "src/transports/node.ts"];
/** ...and the legacy session layer (resumable SSE, event history) with its first 2025 session. */
const LEGACY_SESSIONS = "src/transports/http/sessions.ts";

const BUDGETS: Budget[] = [
  {
    name: "minimal stdio tool server (library code)",
    entry: "test/size/minimal-stdio.ts",
    // DESIGN §5 wants a stdio tool server's library code under 4 kB gzipped. At first measurement
    // (both protocol eras, stdio, tools) it was 5,876 B, already over that target, so the ceiling is
    // the measured size + 5% (6,170 B) rather than 4,096 B: it stops further growth without pretending the
    // target is met. Lower it toward `target` as the code shrinks; never raise it without a reason.
    // About 165 B of the minified bundle is the fixture itself and esbuild's glue, not src/; the log
    // line prints that share. It is left in: the ceiling errs on the side of counting too much.
    // Raised to 6,700 B when the HTTP transport landed: Server gained `fetch` and `serve({ port })`
    // (the lazy loaders of the HTTP chunks, ~300 B) and results gained JSON-safety checks. Measured
    // 6,472 B. Still over the 4 kB target: the issue on speed and size owns bringing it down.
    // Raised to 10,100 B with resources, prompts, completions, logging, progress and
    // subscriptions/listen (issue 4): the Server class and the method table reference them, so a
    // tools-only server carries them too (+3.3 kB). Measured 9,736 B.
    // Raised to 13,100 B with asking the client (issue 5): elicitation, sampling, roots, the round
    // runner and the HMAC requestState (+3 kB). Measured 12,709 B. The speed and size issue owns
    // splitting these behind dynamic imports so a tools-only server stops paying for them.
    // Raised to 13,500 B when issue 5 was finished (+490 B): legacy URL elicitations reported
    // complete (server.completeElicitation), answers checked per era, mode-less elicitation for
    // pre-2025-11-25 sessions, oversized-state and duplicate-key errors. Measured 13,197 B.
    // Raised to 16,700 B with hardening (issue 7), measured 16,236 B; before it the tree measured
    // 14,490 B, of which ~0.6 kB was issue 7's limits module, already committed. What grew: the
    // limits (maxMessageBytes with an oversized line skipped as it streams in and its id recovered,
    // concurrency, handler timeouts on one coarse timer), graceful shutdown (stdin EOF, close(),
    // SIGTERM/SIGINT), unhandled-rejection logging, stdout backpressure and EPIPE, JSON-safe
    // serialization of responses, and batch checks. A stdio server needs all of it to stay up.
    // Raised to 19,600 B with authorization (issue 8), measured 19,176 B (the tree before: 16,561 B,
    // so +2.6 kB): per-registration auth rules checked before validation, the auth settings with
    // the canonical resource, ctx.auth, in-band challenges for refused calls, securitySchemes, and
    // safe error messages (no paths or credentials). Every server pays for it, because the Server
    // class and the tool pipeline reference it; splitting it out for servers without auth belongs
    // to the speed and size issue, with the other optional features.
    // Lowered to 14,800 B by the speed and size issue (issue 6), measured 14,357 B: the run-time code
    // of resources, prompts, completions and listen, of asking the client (rounds, requestState,
    // legacy questions), of auth checks and of server.call loads on first use (src/lazy.ts), while
    // what registration validates stays static. 2,209 B of the minified bundle is esbuild's glue
    // between the 13 chunks the entry loads (see the top of this file).
    // Why it stays over 4 kB (`npm run footprint --prefix bench` measures it: for each concern, the
    // gzipped bytes the bundle would lose without it): JSON-RPC messages, the stdio transport and the
    // connection 2.5 kB; dispatch (both eras, the envelope, the method table) 3.1 kB; the tool
    // pipeline 1.7 kB; the server and registry API 1.5 kB; limits, shutdown and signals 1.1 kB; auth
    // settings and rules 1.0 kB; resource and prompt registration 0.7 kB; the request context
    // 0.7 kB; esbuild's glue 0.7 kB; the 2025 handshake 0.2 kB. Message text (100 literals over 24
    // characters, the errors that tell the model what to do next) is 2.3 kB of those. The floor, the
    // first three concerns alone with no message text at all, gzips to 7.6 kB: no server that reads
    // JSON-RPC over stdio, dispatches it and validates a tool's arguments the way these modules do
    // fits in 4 kB. The target would take a different library (one era, no limits, no auth, terse
    // errors); dropping auth and registration code from servers that do not use them would give ~1.7 kB.
    // Raised to 15,900 B by the reliability issue (13), measured 15,618 B (14,404 B before it,
    // +1,214 B). About 640 B is stdio: answers queued one string per message and written under
    // stdout's backpressure (a turn's answers joined into one string lost those past V8's longest
    // string), reads under a stop signal that keep nothing they read, and stdout kept for protocol
    // from every console method and any stray stdout.write (src/transports/line-output.ts, stdout.ts).
    // About 300 B is the tool pipeline: what a getter or toJSON throws while a result becomes JSON
    // redacted like a thrown error, ids JSON.parse would round refused, prototype-free method tables.
    // The rest is the Server class (Bun's loopback hostname, deno serve's onListen, auth.resource
    // required off loopback) and the per-request deadline timer on Workers. Issue 14 (the pico core)
    // owns bringing this row to its 4 kB target.
    // Raised to 17,200 B by public middleware and plug-ins (issue 14, server.use), measured 16,953 B
    // (15,618 B before): src/middleware.ts (the chain, ~430 B) and src/plugin.ts (methods, capabilities,
    // context, ~1 kB) are reached from Server.use, so every server carries them; the interface the
    // layers of issue 14 are to be written on.
    ceiling: 17_200,
    target: 4_096,
    nodeBuiltins: "forbidden",
    loads: "static",
  },
  {
    name: "full dual-era HTTP server (library code)",
    entry: "test/size/http-server.ts",
    // Everything a Streamable HTTP server loads: the core, both eras, legacy sessions with resumable
    // SSE, Host/Origin checks, the Web fetch adapter and the node:http bridge. DESIGN §5 target: 12 kB.
    // First measured at 11,774 B with the HTTP transport; ceiling +2.5%, under the target.
    // Raised to 15,500 B with resources, prompts, completions, logging, progress and listen
    // (issue 4), measured 14,974 B: now over the 12 kB target, which the speed and size issue owns.
    // Raised to 18,500 B with asking the client (issue 5), measured 17,999 B.
    // Raised to 19,400 B when issue 5 was finished (the same +490 B as above), measured 18,942 B
    // on a tree that had grown to 18,459 B in between.
    // Raised to 23,200 B with hardening (issue 7), measured 22,584 B (the tree before: 20,201 B):
    // the stdio row's additions plus SSE stream limits and bounded buffers with backpressure, 503 for
    // a busy or closing server, graceful listener shutdown and the node:http bridge fixes.
    // Raised to 27,400 B with authorization (issue 8), measured 26,819 B (the tree before: 22,945 B):
    // the stdio row's 2.6 kB plus the HTTP token gate (protected resource metadata at both
    // well-known URLs, bearer parsing, audience and expiry checks, 401/403 challenges), ~1.2 kB.
    // Lowered to 22,000 B by the speed and size issue, measured 21,382 B. The row now counts what a
    // dual-era HTTP tool server loads: its static graph, the listener, endpoint and node:http bridge it
    // imports on start, and the session layer it imports with its first 2025 session; no longer every
    // reachable chunk (the next row keeps that), since feature code it never uses now loads on first
    // use, and the token gate only with `auth.verify`. Before the split, all of it measured 27,217 B.
    // Over the 12 kB target for the same reasons as the stdio row, plus the Streamable HTTP endpoint
    // (4.7 kB: header checks of both eras, JSON or SSE answers, Host/Origin, CORS), the legacy
    // sessions with resumable SSE (0.9 kB) and the listener with the node:http bridge (0.9 kB);
    // message text is 3.2 kB. The floor (the stdio row's three concerns and the HTTP endpoint, with no
    // message text) gzips to 11.9 kB, just under the 12 kB target with nothing else in it.
    // Raised to 25,200 B by the reliability issue (13), measured 24,761 B (21,697 B before it,
    // +3,064 B): the stdio row's +1.2 kB (every server carries the stdio code today); the session
    // history bounded in bytes, per session and per server, with streams read from it as the client
    // pulls (a replay of any size, a slow reader throttled instead of dropped), ~0.9 kB; Host and
    // Origin parsed strictly and compared by what they name (every loopback spelling, an origin's
    // scheme), the Host check ahead of every route, Content-Type as a media type, Connection: close
    // after a 413 and while shutting down, ~0.5 kB; on Workers, sessions off by default and keep-alive
    // comments, Bun's and deno serve's loopback Host check, ~0.4 kB. Issue 14 owns the 12 kB target.
    // Raised to 26,500 B by public middleware and plug-ins (issue 14, server.use), measured 26,097 B
    // (24,761 B before): src/middleware.ts (the chain, ~430 B) and src/plugin.ts (methods, capabilities,
    // context, ~1 kB) are reached from Server.use, so every server carries them; the interface the
    // layers of issue 14 are to be written on.
    // Raised to 26,900 B, measured 26,579 B (26,196 B after middleware, +383 B): listening.close()
    // waits for the last answers to reach their sockets (node:http tracks responses not yet sent, Bun
    // stops gracefully first), the HTTP envelope handed to the dispatcher instead of read twice (its
    // own entry points, answerModern and answerLegacy), and JSON Schemas without zod's safe-integer
    // bounds (the walk over a converted schema).
    ceiling: 26_900,
    target: 12_288,
    nodeBuiltins: "forbidden",
    loads: { dynamic: [...HTTP_SERVER, LEGACY_SESSIONS] },
  },
  {
    name: "everything an HTTP server can load, every feature included (library code)",
    entry: "test/size/http-server.ts",
    // The HTTP row plus every chunk the library could ever load: resources, prompts, completions and
    // listen at run time, asking the client, auth checks, the token gate. No program loads it all;
    // the row guards the lazily loaded code, which the other rows do not count. First measured at
    // 29,746 B; ceiling +2.5%. (The previous HTTP row, which counted the same, measured 27,217 B
    // before the split: esbuild's glue between the 25 chunks of the split build, 5.5 kB minified, and
    // the lazy loaders make up the difference.)
    // Raised to 34,400 B by the reliability issue (13), measured 33,878 B (30,060 B before it): the
    // HTTP row's +3.1 kB, plus single-use requestState (a bounded record of used ids, strict parsing)
    // and completion that checks each entry's auth first, in the lazily loaded chunks.
    // Raised to 35,800 B by public middleware and plug-ins (issue 14, server.use), measured 35,301 B
    // (33,878 B before): src/middleware.ts (the chain, ~430 B) and src/plugin.ts (methods, capabilities,
    // context, ~1 kB) are reached from Server.use, so every server carries them; the interface the
    // layers of issue 14 are to be written on.
    // Raised to 36,200 B, measured 35,741 B: the HTTP row's +383 B.
    ceiling: 36_200,
    nodeBuiltins: "forbidden",
    loads: "all",
  },
  {
    name: "OAuth-protected HTTP server with picomcp/jwt (library code)",
    entry: "test/size/jwt-verifier.ts",
    // The HTTP row plus the JWT verifier (Web Crypto RS/PS/ES/EdDSA, JWKS fetch and cache, claim
    // checks). First measured at 28,762 B; ceiling +2.5%.
    // Lowered to 25,500 B by the speed and size issue, measured 24,813 B: the row counts what the
    // fixture loads (the Web endpoint with its first request, the session layer, the token gate and
    // the auth checks its scoped tool needs), no longer the feature chunks it never loads.
    // Raised to 28,300 B by the reliability issue (13), measured 27,836 B (24,883 B before it): the
    // HTTP row's +3.1 kB, less the per-request resource derivation the token gate no longer does.
    // Raised to 29,600 B by public middleware and plug-ins (issue 14, server.use), measured 29,178 B
    // (27,836 B before): src/middleware.ts (the chain, ~430 B) and src/plugin.ts (methods, capabilities,
    // context, ~1 kB) are reached from Server.use, so every server carries them; the interface the
    // layers of issue 14 are to be written on.
    // Raised to 29,900 B, measured 29,544 B: the HTTP row's +383 B.
    ceiling: 29_900,
    nodeBuiltins: "forbidden",
    loads: { dynamic: ["src/transports/http/web.ts", LEGACY_SESSIONS, "src/auth/gate.ts", "src/auth/enforce.ts"] },
  },
  {
    name: "OAuth-protected HTTP server with picomcp/introspection (library code)",
    entry: "test/size/introspection-verifier.ts",
    // The JWT row's program with the token introspection verifier (RFC 7662) instead: the request
    // with the resource server's credentials, the answer's claims, the SHA-256-keyed cache and single
    // flight. First measured at 24,279 B (568 B under the JWT row: no JWKS or signature code);
    // ceiling +2.5%.
    // Raised to 27,700 B by the reliability issue (13), measured 27,267 B (24,331 B before it): as
    // the JWT row.
    // Raised to 29,000 B by public middleware and plug-ins (issue 14, server.use), measured 28,591 B
    // (27,267 B before): src/middleware.ts (the chain, ~430 B) and src/plugin.ts (methods, capabilities,
    // context, ~1 kB) are reached from Server.use, so every server carries them; the interface the
    // layers of issue 14 are to be written on.
    // Raised to 29,400 B, measured 28,994 B: the HTTP row's +383 B.
    ceiling: 29_400,
    nodeBuiltins: "forbidden",
    loads: { dynamic: ["src/transports/http/web.ts", LEGACY_SESSIONS, "src/auth/gate.ts", "src/auth/enforce.ts"] },
  },
  {
    name: "picomcp/testing: contract kit, HTTP harness, token issuer, linter (library code)",
    entry: "test/size/testing.ts",
    // Test-time code, never in a served bundle; the row keeps it Web-only (no Node built-ins, so
    // suites on Workers and Deno can use it) and stops silent growth. First measured at
    // 35,226 B; ceiling +2.5%.
    // Raised to 39,400 B by the speed and size issue, measured 38,393 B (35,675 B before it): the kit
    // did not grow, but this row counts every chunk, and splitting the library into code loaded on
    // first use adds esbuild's import/export glue between chunks (5.6 kB minified: all of the
    // "not from src/" share) and the lazy loaders themselves. Programs load far less (rows above).
    // Raised to 43,500 B by the reliability issue (13), measured 42,898 B (39,126 B before it): the
    // "everything" row's +3.8 kB.
    // Raised to 44,900 B by public middleware and plug-ins (issue 14, server.use), measured 44,311 B
    // (42,898 B before): src/middleware.ts (the chain, ~430 B) and src/plugin.ts (methods, capabilities,
    // context, ~1 kB) are reached from Server.use, so every server carries them; the interface the
    // layers of issue 14 are to be written on.
    ceiling: 44_900,
    nodeBuiltins: "forbidden",
    loads: "all",
  },
];

/** Schema libraries stay external: the application brings its own (DESIGN §1, "no schema library is a dependency"). */
const SCHEMA_LIBRARIES = ["zod", "zod/*", "valibot", "@valibot/*", "arktype", "@standard-schema/*"];
/** Node built-ins stay external too, so that a bundle that imports one builds and the metafile names it. */
const NODE_BUILTINS = ["node:*", ...builtinModules];

const ROOT = fileURLToPath(new URL("..", import.meta.url));

interface Bundle {
  minified: number;
  gzipped: number;
  /** Minified bytes that come from src/, the library itself. */
  library: number;
  /** Minified bytes of esbuild's glue between the chunks loaded (their imports and exports). */
  glue: number;
  /** Every import of a Node built-in anywhere in the module graph, as "importer -> module". */
  builtinImports: string[];
}

function isNodeBuiltin(path: string): boolean {
  return path.startsWith("node:") || builtinModules.includes(path);
}

function build_(source: { entry: string } | { contents: string }) {
  return build({
    ...("entry" in source
      ? { entryPoints: [source.entry], splitting: true, outdir: "size-out" }
      : { stdin: { contents: source.contents, resolveDir: ROOT, loader: "ts" as const } }),
    absWorkingDir: ROOT,
    bundle: true,
    minify: true,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    external: [...SCHEMA_LIBRARIES, ...NODE_BUILTINS],
    metafile: true,
    write: false,
    logLevel: "silent",
  });
}

type Built = Awaited<ReturnType<typeof build_>>;

/** What a program loads of a split build: see `Budget.loads`. */
function measure(result: Built, entryPath: string | undefined, loads: Budget["loads"]): Bundle {
  const outputs = result.metafile.outputs;
  // Chunks of dynamic imports are entry points too: the program's own entry is the one built from `entryPath`.
  const entry =
    Object.keys(outputs).find((path) => entryPath !== undefined && outputs[path]?.entryPoint === entryPath) ??
    Object.keys(outputs)[0];
  if (entry === undefined) throw new Error("esbuild produced no output");
  const follow = (path: string) =>
    loads === "all" || (typeof loads === "object" && loads.dynamic.includes(outputs[path]?.entryPoint ?? ""));
  // The chunks the program loads: static imports always, dynamic ones as `loads` says.
  const loaded = new Set<string>([entry]);
  for (const path of loaded) {
    for (const imported of outputs[path]?.imports ?? []) {
      if (imported.external) continue;
      if (imported.kind === "import-statement" || follow(imported.path)) loaded.add(imported.path);
    }
  }
  const files = result.outputFiles.filter((file) => loaded.has(relative(ROOT, file.path)));
  const contents = Buffer.concat(files.map((file) => file.contents));
  let library = 0;
  let inputs = 0;
  for (const path of loaded) {
    for (const [input, info] of Object.entries(outputs[path]?.inputs ?? {})) {
      inputs += info.bytesInOutput;
      if (input.startsWith("src/")) library += info.bytesInOutput;
    }
  }
  // The inputs' imports cover the whole module graph, including code that tree-shaking dropped:
  // "nothing in the core imports a Node built-in" (DESIGN §2) is about the source, not just the output.
  const builtinImports = Object.entries(result.metafile.inputs).flatMap(([importer, input]) =>
    input.imports.filter((i) => isNodeBuiltin(i.path)).map((i) => `${importer} -> ${i.path}`),
  );
  return {
    minified: contents.length,
    gzipped: gzipSync(contents, { level: 9 }).length,
    library,
    glue: contents.length - inputs,
    builtinImports,
  };
}

async function bundle(source: { entry: string } | { contents: string }, loads: Budget["loads"] = "all") {
  return measure(await build_(source), "entry" in source ? source.entry : undefined, loads);
}

/** One build per entry: rows that share an entry count different chunks of it. */
const builds = new Map<string, Promise<Built>>();
async function bundleOf(budget: Budget): Promise<Bundle> {
  let pending = builds.get(budget.entry);
  if (!pending) {
    pending = build_({ entry: budget.entry });
    builds.set(budget.entry, pending);
  }
  return measure(await pending, budget.entry, budget.loads);
}

describe("size budgets", () => {
  it.each(BUDGETS)("$name: gzipped size at or under its ceiling", async (budget) => {
    const { minified, gzipped, library, glue } = await bundleOf(budget);
    const target =
      budget.target === undefined
        ? ""
        : gzipped <= budget.target
          ? `, target ${budget.target} B met`
          : `, target ${budget.target} B: OVER by ${gzipped - budget.target} B`;
    console.log(
      `[size] ${budget.name}: ${gzipped} B gzip (${minified} B minified, ${minified - library} B of it not from src/, ${glue} B of that chunk glue); ceiling ${budget.ceiling} B${target}`,
    );
    expect(
      gzipped,
      `${budget.entry} grew past its ceiling; see the rule at the top of test/size.test.ts`,
    ).toBeLessThanOrEqual(budget.ceiling);
  });

  it.each(BUDGETS.filter((budget) => budget.nodeBuiltins === "forbidden"))(
    "$name: imports no Node built-in",
    async (budget) => {
      const { builtinImports } = await bundleOf(budget);
      expect(builtinImports, "Web entries must run on Workers and Deno: no Node built-ins").toEqual([]);
    },
  );

  it("detects Node built-ins in every import form", async () => {
    const { builtinImports } = await bundle({
      contents: [
        'import { readFileSync } from "node:fs";',
        'import * as http from "http";',
        "export const read = readFileSync, server = http.createServer;",
        'export const stream = () => import("stream");',
        'export const bytes = () => import("buffer");',
        'export const proc = () => import("process");',
        'export const net = () => import("net");',
      ].join("\n"),
    });
    expect(builtinImports.map((line) => line.split(" -> ")[1]).sort()).toEqual(
      ["buffer", "http", "net", "node:fs", "process", "stream"].sort(),
    );
  });
});
