/**
 * `picomcp call <file> <tool> [json | --arg k=v …]`: one tool call through the server's whole
 * pipeline (its own Streamable HTTP handling, in-process), with progress on stderr and elicitation
 * answered from the terminal.
 */
import { ErrorCode } from "../core/errors.js";
import { flagValue, parseArgs, UsageError } from "./args.js";
import { Client, RpcError } from "./client.js";
import { closest } from "./closest.js";
import { DEFAULT_TIMEOUT_MS, noAnswer, TimedOut, timeoutOf } from "./deadline.js";
import { answerElicitation } from "./elicit.js";
import { loadServer } from "./load.js";
import { printable } from "./printable.js";
import { ProgressBar } from "./progress.js";
import { EXIT, print, printJson, type Verb, warn } from "./verb.js";

export const call: Verb = {
  name: "call",
  summary: "call one tool in-process and show its result, with progress and elicitation",
  help: `Usage: picomcp call <server file> <tool> [json arguments] [--arg name=value ...] [options]

Calls one tool of the server the file exports, through the server's own Streamable HTTP handling
(a 2025-11-25 session, in-process, no port): arguments are validated, middleware and auth run as
for a client. Prints the result: text as it is, structured content as indented JSON, a tool
error's text on stderr. Progress the tool reports is drawn as a bar on stderr. When the tool asks
the user (elicitation), the form is asked on the terminal; without a terminal on stdin it is declined.

Arguments: one JSON object ('{"city":"Lisbon","days":2}'), or --arg name=value for each (a value
is taken as a string when the tool's input schema allows a string, as JSON otherwise: --arg days=2).

Options:
  --arg      name=value, once for each argument
  --export   the export that holds the server, if not the default one
  --token    a bearer token, for a server with auth
  --timeout  the milliseconds to wait for each answer of the server (default ${DEFAULT_TIMEOUT_MS}); past it the
             call is cancelled and picomcp exits 1. Time spent answering the tool's questions is not counted.
  --json     print the tools/call result as JSON

Exit codes: 0 the tool answered, 1 it answered with a tool error (isError: invalid arguments, an
error its run threw), the call failed (a JSON-RPC error: an unknown tool) or no answer came within
--timeout, 2 the module or server cannot be loaded.
`,
  async run(argv) {
    const args = parseArgs(argv, { values: ["arg", "export", "token", "timeout"] });
    const [file, tool, ...rest] = args.positionals;
    if (!file) throw new UsageError("which server file?");
    if (!tool) throw new UsageError(`which tool? Give its name after the file (picomcp list ${file} shows them)`);
    const pairs = args.values.get("arg") ?? [];
    // Said before the words after the tool are read as JSON: `--arg city Lisbon` gave the value apart.
    const unpaired = pairs.find((pair) => pair.indexOf("=") < 1);
    if (unpaired !== undefined) {
      const example = rest.length === 1 ? `, such as --arg ${unpaired}=${rest[0]}` : "";
      throw new UsageError(`--arg ${unpaired}: write it as name=value${example}`);
    }
    // `city=Lisbon` as a shell user writes it, without --arg.
    if (rest.length > 0 && rest.every((word) => /^[\w.-]+=/.test(word))) {
      throw new UsageError(`give each argument with --arg: ${rest.map((word) => `--arg ${word}`).join(" ")}`);
    }
    const [json, extra] = rest;
    if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}"`);
    if (json !== undefined && pairs.length > 0) throw new UsageError("give a JSON object or --arg, not both");
    const timeoutMs = timeoutOf(args);
    const { server } = await loadServer(file, {
      name: flagValue(args, "export"),
      command: "picomcp call",
      flag: "--export",
    });
    /** The tool's last progress report and when it came: a tool still at work is not a stuck one. */
    let progressed: { at: number; params: Record<string, unknown> } | undefined;
    // No answer within --timeout, said with the request that got none: the tool, or what came before it.
    const unanswered = (thrown: unknown): never => {
      if (!(thrown instanceof TimedOut)) throw thrown;
      if (thrown.method !== "tools/call") throw noAnswer(`the server's ${thrown.method}`, timeoutMs);
      throw noAnswer(`the tool "${tool}"`, timeoutMs, progressed && progressReport(progressed));
    };
    const client = await Client.open(server, {
      capabilities: { elicitation: { form: {}, url: {} } },
      token: flagValue(args, "token"),
      timeoutMs,
    }).catch(unanswered);
    try {
      let input: Record<string, unknown> = json === undefined ? {} : parseObject(json);
      if (json !== undefined || pairs.length > 0) {
        const schema = await inputSchema(client, tool).catch(unanswered);
        if (pairs.length > 0) input = fromPairs(schema, pairs);
        const unnamed = unnamedArguments(schema, input);
        if (unnamed) warn(printable(`picomcp call: the tool "${tool}" ${unnamed}`));
      }
      const bar = new ProgressBar(process.stderr);
      const calling = client.request(
        "tools/call",
        { name: tool, arguments: input, _meta: { progressToken: 1 } },
        {
          onNotification(method, params) {
            if (method === "notifications/progress") {
              bar.update(params);
              progressed = { at: Date.now(), params };
            } else if (method === "notifications/message") {
              bar.done();
              warn(printable(`[${params.level}]${params.logger ? ` ${params.logger}:` : ""} ${format(params.data)}`));
            }
          },
          async onRequest(method, params) {
            bar.done();
            if (method === "elicitation/create") return answerElicitation(params);
            throw { code: -32601, message: `picomcp call does not answer ${method}` };
          },
        },
      );
      const result = await calling.catch(async (thrown: unknown) => {
        bar.done();
        if (thrown instanceof RpcError && thrown.code === ErrorCode.InvalidParams)
          throw await namingTools(client, thrown, { file, tool });
        return unanswered(thrown);
      });
      bar.done();
      if (args.switches.has("json")) printJson(result);
      else show(result);
      return result.isError ? EXIT.failed : EXIT.ok;
    } finally {
      await client.close();
    }
  },
};

/** Up to this many tools, an unknown tool's error names them all; past it, the NEAREST_TOOLS nearest. */
const LISTED_TOOLS = 20;
const NEAREST_TOOLS = 10;

/**
 * The error of a call to a tool the server does not have (MCP answers it with -32602, 2025-11-25,
 * Tools, "Error Handling"), ending with the tools it has: the server's own words send the model to
 * tools/list, which is no command a shell runs. A list that fails leaves the error as it came.
 */
async function namingTools(
  client: Client,
  error: RpcError,
  { file, tool }: { file: string; tool: string },
): Promise<RpcError> {
  const names = await client.list("tools/list", "tools").then(
    (tools) => tools.map((each) => String(each.name)),
    () => [tool],
  );
  if (names.includes(tool)) return error;
  // Hundreds of names on one line bury the one meant: past a screenful, those nearest the one typed.
  const named =
    names.length <= LISTED_TOOLS
      ? `The server's tools: ${names.join(", ") || "none"} (picomcp list ${file} describes them).`
      : `The server has ${names.length} tools; the nearest to "${tool}": ` +
        `${closest(names, tool, NEAREST_TOOLS).join(", ")} (picomcp list ${file} lists them all).`;
  const message = `${error.message} ${named}`;
  return new RpcError({ code: error.code, message, data: error.data }, error.status);
}

function parseObject(json: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = parseFinite(json, "the arguments");
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(
      `the arguments are not JSON (${(error as Error).message}): quote them, such as '{"city":"Lisbon"}'`,
    );
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    throw new UsageError('the arguments must be a JSON object, such as \'{"city":"Lisbon"}\'');
  }
  return value as Record<string, unknown>;
}

/** The parts of a tool's input schema that say which arguments it takes. */
interface InputSchema {
  properties?: Record<string, PropertySchema>;
  additionalProperties?: unknown;
  patternProperties?: unknown;
}

/** The input schema of `tool` as tools/list gives it; undefined for a tool the server does not list. */
async function inputSchema(client: Client, tool: string): Promise<InputSchema | undefined> {
  const tools = await client.list("tools/list", "tools");
  return tools.find((candidate) => candidate.name === tool)?.inputSchema as InputSchema | undefined;
}

/**
 * The arguments given that the input schema does not list, in words, when it lists which it takes. One it
 * closes (additionalProperties: false) takes no others: the call will be refused, so that is a warning.
 * Without additionalProperties JSON Schema allows others, and a library may keep them or drop them (zod's
 * z.object drops them, so a misspelt optional one leaves its default in place): said without guessing which.
 */
function unnamedArguments(schema: InputSchema | undefined, input: Record<string, unknown>): string | undefined {
  const properties = schema?.properties;
  if (!properties || schema.patternProperties !== undefined) return undefined;
  const closed = schema.additionalProperties === false;
  if (!closed && schema.additionalProperties !== undefined) return undefined;
  const unnamed = Object.keys(input).filter((name) => !Object.hasOwn(properties, name));
  if (unnamed.length === 0) return undefined;
  const known = Object.keys(properties);
  const listed = known.length ? `its arguments: ${known.join(", ")}` : "it takes none";
  if (closed) {
    return `has no argument ${unnamed.join(", ")} (${listed}), and its input schema takes no others: check the spelling.`;
  }
  return (
    `does not list ${unnamed.join(", ")} in its input schema (${listed}); ` +
    `${unnamed.length > 1 ? "they are" : "it is"} sent as given${known.length ? ": check the spelling if you meant one of those" : ""}.`
  );
}

/** `--arg name=value` pairs, each value read as the tool's input schema types it. */
function fromPairs(schema: InputSchema | undefined, pairs: string[]): Record<string, unknown> {
  // No prototype: `--arg __proto__=…` is an argument like any other, where on a plain object it would
  // set the prototype and never be sent. The object is sent as JSON, whose keys are plain data.
  const input: Record<string, unknown> = Object.create(null);
  const properties = schema?.properties;
  for (const pair of pairs) {
    // Each has a name before its "=": run() checked them all before the server loaded.
    const equals = pair.indexOf("=");
    const name = pair.slice(0, equals);
    const value = pair.slice(equals + 1);
    // Either value alone would be a call the user did not ask for.
    if (Object.hasOwn(input, name)) {
      throw new UsageError(
        `--arg ${name} is given twice: give each argument once (a list as JSON: --arg ${name}='["a","b"]')`,
      );
    }
    // Own properties only: a name such as "constructor" must not find Object.prototype's.
    const property = properties && Object.hasOwn(properties, name) ? properties[name] : undefined;
    input[name] = property && takesString(property) ? value : parseLoosely(pair, value);
  }
  return input;
}

interface PropertySchema {
  type?: unknown;
  anyOf?: PropertySchema[];
  oneOf?: PropertySchema[];
}

/** Whether a string is one of the values the property takes: `"string"`, `["string", "null"]`, or a branch of anyOf/oneOf. */
function takesString(property: PropertySchema): boolean {
  const { type } = property;
  if (type === "string" || (Array.isArray(type) && type.includes("string"))) return true;
  return [...(property.anyOf ?? []), ...(property.oneOf ?? [])].some(takesString);
}

/** An --arg value as JSON, or as the string it is when it is not JSON. */
function parseLoosely(pair: string, value: string): unknown {
  try {
    return parseFinite(value, `--arg ${pair}`);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    return value;
  }
}

/**
 * JSON.parse, refusing a number it reads as Infinity (1e999), which JSON.stringify would then send
 * as null: a call not asked for. `what` names the text in the UsageError.
 */
function parseFinite(text: string, what: string): unknown {
  let beyond = false;
  const parsed: unknown = JSON.parse(text, (_key, item: unknown) => {
    beyond ||= typeof item === "number" && !Number.isFinite(item);
    return item;
  });
  if (beyond) {
    throw new UsageError(
      `${what}: the number is beyond what JSON carries (about ±1.8e308), and would be sent as null: give a smaller one`,
    );
  }
  return parsed;
}

/** A progress report as the user is told of it: `(3/5 "page 3") 40 ms before`. */
function progressReport({ at, params }: { at: number; params: Record<string, unknown> }): string {
  const total = params.total === undefined ? "" : `/${params.total}`;
  const message = typeof params.message === "string" ? ` ${JSON.stringify(params.message)}` : "";
  return printable(`(${params.progress}${total}${message}) ${Date.now() - at} ms before`);
}

function format(data: unknown): string {
  return typeof data === "string" ? data : JSON.stringify(data);
}

/** The result for people: text blocks as they are, structured content indented, other blocks named. */
function show(result: Record<string, unknown>): void {
  const content = (result.content ?? []) as Record<string, unknown>[];
  const structured = result.structuredContent;
  const copy = structured === undefined ? undefined : JSON.stringify(structured);
  const lines: string[] = [];
  for (const block of content) {
    if (block.type === "text") {
      // The JSON text copy of structured content is shown once, indented, below.
      if (copy !== undefined && sameJson(String(block.text), copy)) continue;
      lines.push(String(block.text));
    } else if (block.type === "image" || block.type === "audio") {
      // The bytes the base64 decodes to: its padding and line breaks are none of them.
      const bytes = Buffer.from(String(block.data), "base64").length;
      lines.push(`[${block.type} ${block.mimeType}, ${bytes} bytes]`);
    } else if (block.type === "resource_link") {
      lines.push(`[link ${block.uri}${block.name ? ` "${block.name}"` : ""}]`);
    } else if (block.type === "resource") {
      const resource = block.resource as Record<string, unknown>;
      lines.push(`[resource ${resource.uri}]${typeof resource.text === "string" ? `\n${resource.text}` : ""}`);
    } else {
      lines.push(JSON.stringify(block));
    }
  }
  if (structured !== undefined) lines.push(JSON.stringify(structured, null, 2));
  // Text from the server, shown to a person: its control characters are written out, not run.
  const text = printable(lines.join("\n"));
  if (result.isError) {
    warn(`Tool error: ${text}`);
    return;
  }
  if (text) print(text);
}

function sameJson(text: string, json: string): boolean {
  try {
    return JSON.stringify(JSON.parse(text)) === json;
  } catch {
    return false;
  }
}
