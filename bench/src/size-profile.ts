/**
 * What a picomcp bundle's gzipped bytes are made of (issue 6: "if a target cannot be met, show the
 * profile that says why and what it would take"). Minified bytes per module do not answer that, since
 * gzip shares repeated text across modules; this measures, for each concern, the gzipped bytes the
 * bundle would lose without it: gzip(everything) minus gzip(everything but that concern's code).
 *
 * How: the program is built exactly as the footprint's bundles are (minified, split), except that a
 * plugin puts a legal comment (`/*! module src/… *\/`, which minification keeps) at the top of each of
 * picomcp's modules, so the minified text between two markers is one module's. A concern's share is
 * then the gzipped size of the chunks with and without its modules' text: no re-minifying, no parsing.
 * The import/export lines between chunks are esbuild's glue. Message text is measured on the parsed
 * chunks (TypeScript's parser, so that quotes inside templates and regular expressions are not taken
 * for strings): every string or template literal whose source is longer than 24 characters.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { build, type Plugin } from "esbuild";
import ts from "typescript";
import { picomcpSource } from "./build.js";
import { BENCH } from "./lib.js";

/** A part of the library, by the modules that implement it (paths relative to src/). */
export interface Concern {
  name: string;
  modules: string[];
}

export interface ConcernShare {
  name: string;
  /** Minified bytes of the concern's modules, as the real build emits them. */
  minified: number;
  /** Gzipped bytes the bundle would lose without the concern's modules. */
  gzipped: number;
  /** The modules that matched, for the reader to check the grouping. */
  modules: string[];
}

export interface SizeProfile {
  /** The gzipped size of the program's chunks, as built here with the module markers taken out. */
  gzipped: number;
  concerns: ConcernShare[];
  /** Modules no concern claimed (the profile prints them so that none is silently left out). */
  unclaimed: string[];
  /** esbuild's import/export lines between the chunks the program loads. */
  glue: { minified: number; gzipped: number };
  /** String and template literals longer than `MESSAGE_LENGTH` characters, across every module. */
  messages: { count: number; minified: number; gzipped: number };
  /**
   * The floor: what the `floor` concerns alone would gzip to, with the program's own code and the glue
   * but without any message text. No server built from these modules can be smaller.
   */
  floor: { concerns: string[]; gzipped: number };
}

/** A literal longer than this is taken for message text (an error, a description), not a key or a name. */
const MESSAGE_LENGTH = 24;
const MARKER = /\/\*! module (\S+) \*\/\n?/g;
/** esbuild's import and export statements between chunks (minified: one statement each). */
const GLUE = /(?:import\s*\{[^}]*\}\s*from\s*"[^"]+"|import\s*"[^"]+"|export\s*\{[^}]*\});?/g;

interface Section {
  /** src/… module, "glue" (esbuild's imports and exports between chunks), or "program" (the entry's own code). */
  owner: string;
  text: string;
}

/** Splits one minified chunk into sections by the module markers, and its imports and exports into glue. */
function sections(chunk: string): Section[] {
  const out: Section[] = [];
  let owner = "program";
  let last = 0;
  const push = (text: string) => {
    let at = 0;
    for (const glue of text.matchAll(GLUE)) {
      out.push({ owner, text: text.slice(at, glue.index) }, { owner: "glue", text: glue[0] });
      at = glue.index + glue[0].length;
    }
    out.push({ owner, text: text.slice(at) });
  };
  for (const marker of chunk.matchAll(MARKER)) {
    push(chunk.slice(last, marker.index));
    owner = marker[1]!;
    last = marker.index + marker[0].length;
  }
  push(chunk.slice(last));
  return out;
}

/** Marks the top of each of picomcp's modules with a comment minification keeps. */
const markModules: Plugin = {
  name: "mark-modules",
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, (args) => {
      const at = args.path.lastIndexOf("/src/");
      if (at === -1 || args.path.includes("node_modules")) return undefined;
      const module = args.path.slice(at + 1);
      return { contents: `/*! module ${module} */\n${readFileSync(args.path, "utf8")}`, loader: "ts" };
    });
  },
};

const gzipOf = (text: string) => gzipSync(text, { level: 9 }).length;

/** Replaces every string and template literal longer than `longer` source characters with "". */
function withoutLongLiterals(text: string, longer: number): { text: string; count: number; bytes: number } {
  const file = ts.createSourceFile("bundle.js", text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.JS);
  const ranges: [number, number][] = [];
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node)) {
      const start = node.getStart(file);
      if (node.end - start > longer) {
        // An import or export specifier is code, not text for a reader.
        if (!ts.isImportDeclaration(node.parent) && !ts.isExportDeclaration(node.parent)) {
          ranges.push([start, node.end]);
          return;
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  let out = "";
  let last = 0;
  let bytes = 0;
  for (const [start, end] of ranges) {
    out += `${text.slice(last, start)}""`;
    bytes += end - start;
    last = end;
  }
  return { text: out + text.slice(last), count: ranges.length, bytes };
}

/**
 * The profile of a footprint entry (bench/footprint/<entry>): the chunks its program loads at start,
 * plus those of the dynamic imports of the modules whose paths end with one of `dynamic` (as the
 * HTTP row of footprint.ts counts them).
 */
export async function profile(
  entry: string,
  dynamic: string[],
  concerns: Concern[],
  floor: string[],
): Promise<SizeProfile> {
  const result = await build({
    entryPoints: [join(BENCH, "footprint", entry)],
    outdir: join(BENCH, ".build", "footprint", "profile"),
    absWorkingDir: BENCH,
    bundle: true,
    splitting: true,
    minify: true,
    legalComments: "inline",
    format: "esm",
    platform: "node",
    target: "node20",
    external: ["zod", "zod/*"],
    metafile: true,
    plugins: [picomcpSource, markModules],
    logLevel: "error",
  });
  const outputs = result.metafile.outputs;
  // The same chunks as the footprint's bundle: the program's entry, its static imports, and the chunks
  // of the dynamic imports listed (by the module they import), with their static imports.
  const main = Object.keys(outputs).find((path) => outputs[path]?.entryPoint === `footprint/${entry}`)!;
  const loaded = new Set<string>([main]);
  for (const path of loaded) {
    for (const imported of outputs[path]?.imports ?? []) {
      if (imported.external) continue;
      const point = outputs[imported.path]?.entryPoint;
      if (imported.kind === "import-statement" || (point !== undefined && dynamic.some((end) => point.endsWith(end))))
        loaded.add(imported.path);
    }
  }
  const chunks = [...loaded].map((path) => sections(readFileSync(join(BENCH, path), "utf8")));
  /** The sections `keep` keeps, chunk by chunk, each chunk's text passed through `map`. */
  const text = (keep: (owner: string) => boolean, map = (chunk: string) => chunk) =>
    chunks
      .map((parts) =>
        map(
          parts
            .filter((part) => keep(part.owner))
            .map((part) => part.text)
            .join(""),
        ),
      )
      .join("");
  const gzipped = gzipOf(text(() => true));
  const share = (matches: (owner: string) => boolean) => ({
    minified: text(matches).length,
    gzipped: gzipped - gzipOf(text((owner) => !matches(owner))),
  });

  const owners = [...new Set(chunks.flat().map((part) => part.owner))].filter((owner) => owner.startsWith("src/"));
  const claimed = new Set<string>();
  const shares: ConcernShare[] = concerns.map((concern) => {
    const matches = (owner: string) => concern.modules.some((module) => owner === `src/${module}`);
    const modules = owners.filter(matches);
    for (const module of modules) claimed.add(module);
    return { name: concern.name, ...share(matches), modules };
  });
  const messages = { count: 0, minified: 0 };
  const withoutMessages = text(
    () => true,
    (chunk) => {
      const stripped = withoutLongLiterals(chunk, MESSAGE_LENGTH);
      messages.count += stripped.count;
      messages.minified += stripped.bytes;
      return stripped.text;
    },
  );
  const floorModules = new Set(shares.filter((share) => floor.includes(share.name)).flatMap((share) => share.modules));
  const floorText = text(
    (owner) => !owner.startsWith("src/") || floorModules.has(owner),
    (chunk) => withoutLongLiterals(chunk, MESSAGE_LENGTH).text,
  );
  return {
    gzipped,
    concerns: shares,
    unclaimed: owners.filter((owner) => !claimed.has(owner)),
    glue: share((owner) => owner === "glue"),
    messages: { ...messages, gzipped: gzipped - gzipOf(withoutMessages) },
    floor: { concerns: floor, gzipped: gzipOf(floorText) },
  };
}
