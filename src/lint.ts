import type { AnyAccess } from "./auth/access.js";
import type { Registry } from "./core/registry.js";
import type { Tool, ToolAnnotations } from "./core/tools.js";
import { headerFaults } from "./lint/param-headers.js";
import { type AnyServer, registryOf, type Server } from "./server.js";

type JsonSchema = Record<string, unknown>;

/** One thing the tool plan gets wrong, or might. */
export interface Finding {
  readonly rule: string;
  readonly severity: "error" | "warning" | "info";
  readonly tool: string | undefined;
  readonly message: string;
}

export interface LintReport {
  readonly findings: Finding[];
  /** The guide's contract of every tool, as Markdown: the plan to keep next to the code and review. */
  readonly checklist: string;
  readonly errors: number;
  readonly warnings: number;
  /** The checklist, then the findings: what `picomcp check` prints. */
  toString(): string;
}

export interface LintOptions {
  /** The overlap score (0–1) from which two tools' descriptions count as ambiguous. Default: 0.5. */
  overlap?: number;
}

const WRITE_VERBS = new Set(
  "create add insert update set edit modify change rename delete remove purge drop send post publish submit cancel approve reject assign move upload import reset revoke archive restore invite pay book order schedule write save put patch merge close open start stop run execute deploy grant transfer".split(
    " ",
  ),
);
const DESTRUCTIVE_VERBS = new Set(
  "delete remove purge drop overwrite replace revoke reset archive destroy wipe".split(" "),
);
const WRITE_SCOPE = /(^|[:._-])(write|admin|manage|delete)($|[:._-])|:w$/i;
const STOPWORDS = new Set(
  "a an the and or but of to in on at by for with from into as is are be been it its this that these those than then when which who whom what where how use used uses using tool tools function call calls this data get returns return can may must should will one each any all only also not no do does".split(
    " ",
  ),
);

/**
 * Lints a server's tool plan against the tool-design guide: descriptions that restate the name,
 * undescribed input fields, missing annotations, contradictory or dishonest hints, descriptions
 * that overlap enough to make selection ambiguous, write tools taking ids no read tool returns,
 * credentials in inputs or outputs (the guide: keep secrets and access tokens out of results), and
 * `x-mcp-header` annotations for which clients drop the tool (lint/param-headers.ts).
 * Also writes each tool's contract as a checklist. Cheap and deterministic; resolves once the
 * server is ready (`server.ready()`), and rejects with its start-up error.
 */
export async function lint(server: AnyServer, options: LintOptions = {}): Promise<LintReport> {
  // The plan is whole once every registration is checked (auth rules and resources by their layers).
  await server.ready();
  const registry = registryOf(server as Server<never>);
  const tools = [...registry.tools.values()];
  const findings: Finding[] = [];
  const add = (finding: Finding) => findings.push(finding);

  for (const tool of tools) {
    const { name } = tool;
    const description = tool.descriptor.description;
    const annotations = tool.descriptor.annotations;
    if (!description?.trim()) {
      add({
        severity: "error",
        rule: "description-missing",
        tool: name,
        message: "no description: the model picks tools by their descriptions",
      });
    } else {
      const words = contentWords(description);
      const nameWords = new Set(wordsOf(name).map(stem));
      const fromName = words.filter((word) => nameWords.has(word)).length;
      if (words.length < 5 || fromName / words.length >= 0.8) {
        add({
          severity: "warning",
          rule: "description-restates-name",
          tool: name,
          message:
            "the description barely says more than the name: say what it does for the user, when to use it, and how it differs from similar tools",
        });
      }
    }
    for (const field of undescribedFields(tool.descriptor.inputSchema)) {
      add({
        severity: "warning",
        rule: "field-undescribed",
        tool: name,
        message: `input field "${field}" has no description (.describe() it)`,
      });
    }
    for (const field of credentialFields(tool.descriptor.inputSchema)) {
      add({
        severity: "warning",
        rule: "credential-input",
        tool: name,
        message: `input field "${field}" looks like a credential: the model would have to supply it, so it would pass through the conversation. Take it from the caller's identity (ctx.auth) or the server's configuration (secret()) instead`,
      });
    }
    for (const field of credentialFields(tool.descriptor.outputSchema)) {
      add({
        severity: "warning",
        rule: "credential-output",
        tool: name,
        message: `output field "${field}" looks like a secret: results reach the model and the user, so leave secrets and access tokens out of them`,
      });
    }
    for (const fault of headerFaults(tool.descriptor.inputSchema)) add({ severity: "error", tool: name, ...fault });
    if (!annotations) {
      add({
        severity: "warning",
        rule: "annotations-missing",
        tool: name,
        message:
          "no annotations: clients assume it may write, destroy and reach the outside world, and ask the user every time",
      });
    } else {
      const missing = ["readOnlyHint", "openWorldHint"].filter(
        (key) => annotations[key as keyof ToolAnnotations] === undefined,
      );
      if (annotations.readOnlyHint !== true && annotations.destructiveHint === undefined)
        missing.push("destructiveHint");
      if (missing.length > 0)
        add({
          severity: "warning",
          rule: "annotations-incomplete",
          tool: name,
          message: `${missing.join(" and ")} not set explicitly`,
        });
      if (annotations.readOnlyHint && annotations.destructiveHint) {
        add({
          severity: "error",
          rule: "readonly-and-destructive",
          tool: name,
          message: "readOnlyHint and destructiveHint are both true: a read-only tool cannot destroy anything",
        });
      }
    }
    const verb = wordsOf(name)[0] ?? "";
    const writeScope = scopesOf(registry, tool).find((scope) => WRITE_SCOPE.test(scope));
    if (annotations?.readOnlyHint && (WRITE_VERBS.has(verb) || writeScope)) {
      add({
        severity: "error",
        rule: "readonly-but-writes",
        tool: name,
        message: writeScope
          ? `marked read-only but needs the write scope "${writeScope}"`
          : `marked read-only but its name starts with the write verb "${verb}"`,
      });
    }
    if (DESTRUCTIVE_VERBS.has(verb) && annotations?.readOnlyHint !== true && annotations?.destructiveHint !== true) {
      add({
        severity: "warning",
        rule: "destructive-understated",
        tool: name,
        message: `"${verb}" sounds irreversible, but destructiveHint is not true`,
      });
    }
    const protects = tool.auth !== undefined || registry.auth?.default !== undefined;
    if (protects && annotations?.readOnlyHint !== true && registry.auth?.accessOf(tool.auth) === "public") {
      add({
        severity: "warning",
        rule: "public-write",
        tool: name,
        message: "a tool that changes state is public: anyone can call it",
      });
    }
  }

  overlaps(tools, options.overlap ?? 0.5, add);
  idsWithoutSource(tools, add);

  const errors = findings.filter((finding) => finding.severity === "error").length;
  const warnings = findings.filter((finding) => finding.severity === "warning").length;
  const checklist = tools.map((tool) => checklistOf(registry, tool)).join("\n");
  return {
    findings,
    checklist,
    errors,
    warnings,
    toString: () => {
      const lines = findings.map(
        (finding) => `${finding.severity.padEnd(7)} ${finding.tool ?? "-"}: ${finding.message} [${finding.rule}]`,
      );
      const summary = `${tools.length} tool${tools.length === 1 ? "" : "s"}, ${errors} error${errors === 1 ? "" : "s"}, ${warnings} warning${warnings === 1 ? "" : "s"}`;
      return `${checklist}\n## Findings\n\n${lines.length > 0 ? lines.join("\n") : "None."}\n\n${summary}\n`;
    },
  };
}

/** The most tools one overlap finding names; the rest are counted ("and 12 more"). */
const OVERLAPS_NAMED = 5;

/**
 * Pairs of tools whose descriptions, names and parameters overlap: the model cannot tell which to pick.
 * One finding per tool for the later tools it overlaps with (another for those one description names:
 * info), naming the closest: a finding per pair made n²/2 of them for n tools alike (600 made 180,000).
 */
function overlaps(tools: Tool[], threshold: number, add: (finding: Finding) => void) {
  const profiles = tools.map((tool) => ({
    tool,
    words: new Set(contentWords(tool.descriptor.description ?? "")),
    name: new Set(wordsOf(tool.name).map(stem)),
    params: new Set(Object.keys((tool.descriptor.inputSchema.properties ?? {}) as object)),
  }));
  for (let i = 0; i < profiles.length; i++) {
    const a = profiles[i]!;
    if (a.words.size === 0) continue;
    const found = { warning: [] as [string, number][], info: [] as [string, number][] };
    for (let j = i + 1; j < profiles.length; j++) {
      const b = profiles[j]!;
      if (b.words.size === 0) continue;
      const score = 0.6 * jaccard(a.words, b.words) + 0.2 * jaccard(a.name, b.name) + 0.2 * jaccard(a.params, b.params);
      if (score < threshold) continue;
      const contrasted = mentions(a.tool, b.tool.name) || mentions(b.tool, a.tool.name);
      found[contrasted ? "info" : "warning"].push([b.tool.name, score]);
    }
    for (const severity of ["warning", "info"] as const) {
      const pairs = found[severity].sort((x, y) => y[1] - x[1]);
      if (pairs.length === 0) continue;
      const named = pairs.slice(0, OVERLAPS_NAMED).map(([name, score]) => `${name} (score ${score.toFixed(2)})`);
      const more = pairs.length > OVERLAPS_NAMED ? ` and ${pairs.length - OVERLAPS_NAMED} more` : "";
      add({
        severity,
        rule: "overlapping-descriptions",
        tool: a.tool.name,
        message: `overlaps with ${named.join(", ")}${more}${severity === "info" ? ", though one names the other" : ""}: say when to use each one instead of the other`,
      });
    }
  }
}

/** Write tools that take an id no read tool hands out: the model must guess it (the guide's "missing read"). */
function idsWithoutSource(tools: Tool[], add: (finding: Finding) => void) {
  const produced = new Set<string>();
  for (const tool of tools) {
    const annotations = tool.descriptor.annotations;
    if (annotations?.readOnlyHint && tool.descriptor.outputSchema) {
      for (const key of fieldNames(tool.descriptor.outputSchema)) produced.add(key);
    }
  }
  for (const tool of tools) {
    const annotations = tool.descriptor.annotations;
    if (annotations?.readOnlyHint) continue;
    const properties = (tool.descriptor.inputSchema.properties ?? {}) as Record<string, unknown>;
    for (const key of Object.keys(properties)) {
      if (!/(^id$|_id$|Id$|Ids$|_ids$)/.test(key) || produced.has(key)) continue;
      add({
        severity: "warning",
        rule: "id-without-read",
        tool: tool.name,
        message: `takes "${key}", but no read-only tool with an output schema returns a field named "${key}": how does the model find one?`,
      });
    }
  }
}

/** The guide's contract form, filled in from the definition; gaps say TODO. */
function checklistOf(registry: Registry, tool: Tool): string {
  const d = tool.descriptor;
  const annotations = d.annotations;
  const input = d.inputSchema;
  const required = new Set((input.required as string[] | undefined) ?? []);
  const fields = Object.entries((input.properties ?? {}) as Record<string, JsonSchema>).map(
    ([key, schema]) =>
      `\`${key}\` ${typeName(schema)}${required.has(key) ? ", required" : ", optional"}${"default" in schema ? `, default ${JSON.stringify(schema.default)}` : ""}${schema.description ? ` — ${schema.description}` : " — TODO: describe"}`,
  );
  const output = d.outputSchema ? Object.keys((d.outputSchema.properties ?? {}) as object) : [];
  return [
    `## ${tool.name}`,
    "",
    `- **Name**: ${tool.name}`,
    `- **Title**: ${d.title ?? annotations?.title ?? "TODO: a short action label"}`,
    `- **Description**: ${d.description ?? "TODO: the user's goal and when to call it"}`,
    `- **Input**:${fields.length > 0 ? `\n${fields.map((field) => `  - ${field}`).join("\n")}` : " none"}`,
    `- **Output**: ${output.length > 0 ? output.map((key) => `\`${key}\``).join(", ") : "TODO: no output schema (text only)"}`,
    `- **Authorization**: ${
      tool.auth === undefined && registry.auth?.default === undefined
        ? "none declared: anyone who can reach the server (fine for a local stdio server)"
        : authorization(registry.auth?.accessOf(tool.auth) ?? tool.auth ?? "public")
    }`,
    `- **Side effects**: ${sideEffects(annotations)}`,
    `- **Failure behaviour**: invalid arguments are a tool error naming the field, and run does not execute${tool.auth !== undefined || registry.auth?.default !== undefined ? "; a refused caller gets a sign-in or step-up challenge (or a not-permitted error) before validation" : ""}; errors thrown by run reach the model as tool errors (message only)`,
    "",
  ].join("\n");
}

function authorization(access: AnyAccess): string {
  if (access === "public") return "public: anyone, signed in or not";
  if (access === "signed-in") return "a signed-in caller";
  if (typeof access === "function") return "a signed-in caller, and a check on the caller and arguments";
  const parts = ["a signed-in caller"];
  if (access.scopes?.length) parts.push(`scopes ${access.scopes.join(", ")}`);
  if (access.roles?.length) parts.push(`roles ${access.roles.join(", ")}`);
  if (access.allow) parts.push("a check on the caller and arguments");
  return parts.join("; ");
}

function sideEffects(annotations: ToolAnnotations | undefined): string {
  if (!annotations) return "TODO: not declared (no annotations)";
  if (annotations.readOnlyHint === true) {
    return `none: read-only${annotations.openWorldHint === true ? ", reaches the outside world" : annotations.openWorldHint === false ? ", within the server's own data" : ""}`;
  }
  const parts = ["changes state"];
  parts.push(
    annotations.destructiveHint === true
      ? "may be irreversible"
      : annotations.destructiveHint === false
        ? "reversible"
        : "TODO: destructive or not?",
  );
  if (annotations.idempotentHint !== undefined)
    parts.push(annotations.idempotentHint ? "idempotent" : "not idempotent");
  parts.push(
    annotations.openWorldHint === true
      ? "reaches the outside world"
      : annotations.openWorldHint === false
        ? "within the server's own data"
        : "TODO: open world or not?",
  );
  return parts.join(", ");
}

function typeName(schema: JsonSchema): string {
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.map((value) => JSON.stringify(value)).join(" | ")}`;
  const branches = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(branches)) return branches.map(typeName).join(" or ");
  const type = Array.isArray(schema.type) ? schema.type.join(" or ") : ((schema.type as string | undefined) ?? "any");
  return typeof schema.format === "string" ? `${type} (${schema.format})` : type;
}

/** A schema's fields as `[path, name, schema]`, at any depth of nested objects and array items. */
function* fieldsOf(schema: JsonSchema | undefined, prefix = ""): Generator<[string, string, JsonSchema]> {
  const properties = (schema?.properties ?? {}) as Record<string, JsonSchema>;
  for (const [key, property] of Object.entries(properties)) {
    const path = `${prefix}${key}`;
    yield [path, key, property];
    yield* fieldsOf(property, `${path}.`);
    const items = property.items as JsonSchema | undefined;
    if (items?.properties) yield* fieldsOf(items, `${path}[].`);
  }
}

/** Input fields without a description. */
function undescribedFields(schema: JsonSchema | undefined): string[] {
  return [...fieldsOf(schema)]
    .filter(([, , property]) => typeof property.description !== "string" || property.description.trim() === "")
    .map(([path]) => path);
}

/**
 * Field names that hold a credential, word by word ("apiKey", "client_secret", "X-Auth-Token"):
 * "token" alone or with a credential word, not a page token or a count of tokens.
 */
const CREDENTIAL_WORDS = new Set(["password", "passwd", "passphrase", "secret", "apikey", "credential", "credentials"]);
const CREDENTIAL_PAIRS = new Set(["api key", "private key", "secret key", "access key", "signing key"]);
const TOKEN_KINDS = new Set(["access", "refresh", "auth", "bearer", "session", "id", "api", "oauth", "personal"]);

function isCredentialName(name: string): boolean {
  const words = wordsOf(name);
  return words.some(
    (word, i) =>
      CREDENTIAL_WORDS.has(word) ||
      CREDENTIAL_PAIRS.has(`${words[i - 1]} ${word}`) ||
      (word === "token" && (words.length === 1 || TOKEN_KINDS.has(words[i - 1] ?? ""))),
  );
}

/** The paths of a schema's fields whose names hold a credential. */
function credentialFields(schema: JsonSchema | undefined): string[] {
  return [...fieldsOf(schema)].filter(([, key]) => isCredentialName(key)).map(([path]) => path);
}

/** Every property name an output schema can produce, at any depth. */
function fieldNames(schema: JsonSchema, into = new Set<string>()): Set<string> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  for (const [key, property] of Object.entries(properties)) {
    into.add(key);
    fieldNames(property, into);
    if (property.items) fieldNames(property.items as JsonSchema, into);
  }
  for (const branch of [...((schema.anyOf as JsonSchema[]) ?? []), ...((schema.oneOf as JsonSchema[]) ?? [])]) {
    fieldNames(branch, into);
  }
  return into;
}

function scopesOf(registry: Registry, tool: Tool): string[] {
  const access = registry.auth?.accessOf(tool.auth) ?? tool.auth;
  return typeof access === "object" ? [...(access.scopes ?? [])] : [];
}

function mentions(tool: Tool, name: string): boolean {
  return (tool.descriptor.description ?? "").includes(name);
}

/** Words of a name or text: snake, kebab, dot and camel case split, lower-cased. */
function wordsOf(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** The words that carry meaning, lightly stemmed. */
function contentWords(text: string): string[] {
  return wordsOf(text)
    .filter((word) => word.length > 1 && !STOPWORDS.has(word))
    .map(stem);
}

function stem(word: string): string {
  if (word.length > 4 && word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  if (word.length > 5 && word.endsWith("ing")) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith("ed")) return word.slice(0, -2);
  if (word.length > 4 && word.endsWith("es") && /(s|x|z|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith("s") && !word.endsWith("ss")) return word.slice(0, -1);
  return word;
}

function jaccard(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 && b.size === 0) return 0;
  let shared = 0;
  for (const item of a) if (b.has(item)) shared++;
  return shared / (a.size + b.size - shared);
}
