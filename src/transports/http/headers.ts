import { isObject, type JsonRpcRequest, nullPrototype } from "../../core/jsonrpc.js";
import { shown } from "../../core/safe.js";
import type { Tool } from "../../core/tools.js";
import { MODERN_VERSIONS } from "../../core/versions.js";
import type { HttpRequest } from "./reply.js";

/**
 * The standard request headers of 2026-07-28 Streamable HTTP (SEP-2243, spec §5.2): they mirror the
 * body so intermediaries can route without parsing it, and the server rejects any disagreement.
 */

/** Which param `Mcp-Name` mirrors, per method. */
const NAME_PARAM = nullPrototype<string>({ "tools/call": "name", "prompts/get": "name", "resources/read": "uri" });

const VISIBLE_ASCII = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;
const SENTINEL = /^=\?base64\?([A-Za-z0-9+/]*={0,2})\?=$/;
const PLAIN = /^[!-<>-~][!-~]*$/;
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** An HTTP field name, a token (RFC 9110 §5.1 `1*tchar`): what an `x-mcp-header` value must be. */
export function isFieldName(value: unknown): value is string {
  return typeof value === "string" && TOKEN.test(value);
}

/**
 * A header value as the client meant it: surrounding whitespace dropped (RFC 9110 OWS), and the
 * `=?base64?…?=` form decoded from UTF-8. Undefined when the value is not valid. Only `Mcp-Name`
 * and `Mcp-Param-*` may be sent so (2026-07-28 Streamable HTTP "Value Encoding" and "Server
 * Validation"); the others are read with `plainValue`.
 */
export function headerValue(raw: string): string | undefined {
  // The common value (a tool name, an argument), visible ASCII without spaces and not the Base64
  // form, has nothing to trim or decode: one regex for it rather than three steps.
  if (PLAIN.test(raw)) return raw;
  const value = plainValue(raw);
  if (value === undefined) return undefined;
  const encoded = SENTINEL.exec(value);
  if (!encoded) return value;
  // atob forgives missing padding; SEP-2243's test table rejects it ("SGVsbG8"), so only whole
  // 4-character groups are Base64 here (2026-07-28 §5.2: malformed Base64 in the sentinel → -32020).
  if (encoded[1]!.length % 4 !== 0) return undefined;
  try {
    const binary = atob(encoded[1]!);
    const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * A header value without the Base64 form: surrounding whitespace dropped, undefined unless visible
 * ASCII. A `=?base64?…?=` value stays as it is, so it differs from the body: an intermediary routes
 * on the literal value, and the server must not run what it did not route.
 */
function plainValue(raw: string): string | undefined {
  const value = raw.trim();
  return VISIBLE_ASCII.test(value) ? value : undefined;
}

/** Whether a header's value `raw` is `expected`, which is visible ASCII where `plain`. */
function mirrors(raw: string, expected: string, plain: boolean): boolean {
  return (raw === expected && plain) || plainValue(raw) === expected;
}

/** Checks `MCP-Protocol-Version` and `Mcp-Method` against the body; runs before the version is judged (conformance order). */
export function mismatchedHeader(request: HttpRequest, message: JsonRpcRequest, version: string): string | undefined {
  const headerVersion = request.header("mcp-protocol-version");
  // The common request sends what its body says: a revision served here, or a method NAME_PARAM names,
  // is visible ASCII, and its header then has nothing to trim nor test (plainValue).
  if (headerVersion !== null && !mirrors(headerVersion, version, MODERN_VERSIONS.includes(version))) {
    return `MCP-Protocol-Version header "${shown(headerVersion)}" does not match _meta protocol version "${shown(version)}"`;
  }
  const method = request.header("mcp-method");
  if (method !== null && !mirrors(method, message.method, message.method in NAME_PARAM)) {
    return `Mcp-Method header "${shown(method)}" does not match the body's method "${shown(message.method)}"`;
  }
  return undefined;
}

/**
 * Checks that the standard headers are present, and `Mcp-Name` equals the param it mirrors: the
 * core's methods' (NAME_PARAM), or `nameParam`, the one a plug-in's method names (tasks: `taskId`).
 */
export function missingHeader(request: HttpRequest, message: JsonRpcRequest, nameParam?: string): string | undefined {
  // Each says what of the body it mirrors, which is what to send (2026-07-28 Streamable HTTP, SEP-2243).
  if (request.header("mcp-protocol-version") === null) {
    return 'The MCP-Protocol-Version header is required; send it with every request, equal to params._meta["io.modelcontextprotocol/protocolVersion"]';
  }
  if (request.header("mcp-method") === null) {
    return "The Mcp-Method header is required; send it with every request, equal to its method";
  }
  const param = NAME_PARAM[message.method] ?? nameParam;
  if (param === undefined) return undefined;
  const expected = message.params?.[param];
  const raw = request.header("mcp-name");
  if (raw === null) return `The Mcp-Name header is required for ${message.method} (it mirrors params.${param})`;
  if (headerValue(raw) !== expected) {
    // Quoted only when a string: a client's array may nest deeper than JSON.stringify can recurse.
    const quoted = typeof expected === "string" ? ` ${JSON.stringify(shown(expected))}` : ", which is not a string";
    return `Mcp-Name header "${shown(raw)}" does not match params.${param}${quoted}`;
  }
  return undefined;
}

interface ParamHeader {
  readonly header: string;
  readonly path: readonly string[];
}

const paramHeaders = new WeakMap<Tool, ParamHeader[]>();

/** The `x-mcp-header` annotations of a tool's input schema, read once per tool (reachable through `properties` only). */
function headersOf(tool: Tool): ParamHeader[] {
  let found = paramHeaders.get(tool);
  if (!found) {
    found = [];
    collect(tool.descriptor.inputSchema, [], found);
    paramHeaders.set(tool, found);
  }
  return found;
}

function collect(schema: unknown, path: string[], into: ParamHeader[]): void {
  if (!isObject(schema) || !isObject(schema.properties)) return;
  for (const [key, property] of Object.entries(schema.properties)) {
    if (!isObject(property)) continue;
    const name = property["x-mcp-header"];
    // A name that is no token is no header a request can carry (a web Request's headers.get throws
    // on one), and clients drop the tool (2026-07-28 Streamable HTTP "Schema Extension"): no check.
    if (isFieldName(name)) into.push({ header: `mcp-param-${name.toLowerCase()}`, path: [...path, key] });
    collect(property, [...path, key], into);
  }
}

/**
 * A number as a client writes it in a header: decimal digits, compared by value ("42", "42.0", "4.2e1"),
 * never a form only `Number()` reads ("0x2A", "0b101010", "+42", "Infinity"), which an intermediary
 * routing on the header would not read as 42 (2026-07-28 Streamable HTTP "Value Encoding").
 */
const DECIMAL = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** Checks the `Mcp-Param-*` headers a tool's arguments require (SEP-2243 "x-mcp-header"). */
export function mismatchedParamHeader(request: HttpRequest, tool: Tool, args: unknown): string | undefined {
  for (const { header, path } of headersOf(tool)) {
    let value: unknown = args;
    for (const key of path) value = isObject(value) ? value[key] : undefined;
    const raw = request.header(header);
    const absent = value === undefined || value === null;
    if (raw === null) {
      if (absent) continue;
      return `The ${header} header is required when arguments.${path.join(".")} is given`;
    }
    const sent = headerValue(raw);
    // A recognized Mcp-Param header with invalid characters MUST be rejected (2026-07-28 Streamable HTTP
    // "Server Behavior for Custom Headers"), its argument given or not: said so, not as a mismatch.
    if (sent === undefined) {
      return `The ${header} header "${shown(raw)}" is invalid; send visible ASCII or =?base64?…?=${absent ? ", or leave it out" : ""}`;
    }
    if (absent) continue;
    // An object or array matches no header (and String() of one nested deep would overflow the stack).
    const same =
      typeof value === "number"
        ? DECIMAL.test(sent) && Number(sent) === value
        : typeof value !== "object" && sent === String(value);
    if (!same) return `The ${header} header "${shown(raw)}" does not match arguments.${path.join(".")}`;
  }
  return undefined;
}
