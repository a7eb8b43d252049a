import { isObject } from "../core/jsonrpc.js";
import { isFieldName } from "../transports/http/headers.js";

type Schema = Record<string, unknown>;

export interface HeaderFault {
  readonly rule: string;
  readonly message: string;
}

/** Keywords whose value maps names to subschemas (so a name there is no annotation). */
const MAPS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"]);
/** Keywords whose value is data, not a schema: an `x-mcp-header` key in it annotates nothing. */
const DATA = new Set(["const", "enum", "default", "examples"]);
const MIRRORED = new Set(["string", "integer", "boolean"]);
const DROPPED = "or 2026-07-28 clients using Streamable HTTP leave the tool out of the tools they offer the model";

interface Annotation {
  readonly name: unknown;
  readonly path: string;
  readonly schema: Schema;
  readonly reachable: boolean;
}

/**
 * The `x-mcp-header` annotations of a tool's input schema that break the rules of 2026-07-28
 * Streamable HTTP, "Custom Headers from Tool Parameters" / "Schema Extension" (SEP-2243):
 *
 * > - MUST NOT be empty
 * > - MUST match HTTP field-name token syntax (`1*tchar`, RFC 9110 Section 5.1)
 * > - MUST NOT contain control characters, including carriage return (CR, `\r`) or line feed (LF, `\n`)
 * > - MUST be case-insensitively unique among all `x-mcp-header` values in the `inputSchema`
 * > - MUST only be applied to parameters with primitive types (integer, string, boolean).
 * >   Parameters with type `number` are not permitted. […]
 * > - MUST only be applied to properties that are _statically reachable_ from the schema root:
 * >   reachable via a chain consisting solely of `properties` keys. […] An `x-mcp-header`
 * >   annotation anywhere else makes the annotation — and thus the tool definition — invalid.
 * >
 * > Clients using the Streamable HTTP transport MUST reject tool definitions where any
 * > `x-mcp-header` value violates these constraints. Rejection means the client MUST exclude the
 * > invalid tool from the result of `tools/list`.
 *
 * (The elided sentence bounds an integer's value, which a call's arguments carry, not the schema.)
 */
export function headerFaults(inputSchema: Schema): HeaderFault[] {
  const faults: HeaderFault[] = [];
  const seen = new Map<string, Annotation>();
  for (const annotation of annotationsOf(inputSchema, "", true)) {
    const { name, path, schema } = annotation;
    const field = `input field "${path}"`;
    const quoted = JSON.stringify(name);
    if (!annotation.reachable) {
      faults.push({
        rule: "x-mcp-header-unreachable",
        message: `x-mcp-header ${quoted} is on ${path === "" ? "the input schema itself" : `"${path}"`}: only a field the input schema reaches through properties alone can be mirrored into a header, not the schema itself nor one under array items, anyOf/oneOf/allOf/not, if/then/else or additionalProperties, nor one in $defs reached through $ref (where zod puts a schema given an id). Move it to such a field or remove it, ${DROPPED}`,
      });
      continue;
    }
    if (!isFieldName(name)) {
      faults.push({
        rule: "x-mcp-header-name",
        message: `${field} has x-mcp-header ${quoted}, which is not an HTTP header name: use a non-empty name of letters, digits and !#$%&'*+-.^_\`|~ only, no spaces or colons (such as "Region", sent as Mcp-Param-Region), ${DROPPED}`,
      });
    } else {
      const first = seen.get(name.toLowerCase());
      if (first)
        faults.push({
          rule: "x-mcp-header-duplicate",
          message: `${field} has x-mcp-header ${quoted}, and input field "${first.path}" has ${JSON.stringify(first.name)}: header names ignore case, so both would be one Mcp-Param-${name} header. Give each field its own name, ${DROPPED}`,
        });
      else seen.set(name.toLowerCase(), annotation);
    }
    if (typeof schema.type !== "string" || !MIRRORED.has(schema.type)) {
      faults.push({
        rule: "x-mcp-header-type",
        message: `${field} has x-mcp-header ${quoted}, but its type is ${schema.type === undefined ? "not set" : JSON.stringify(schema.type)}: only a string, integer or boolean field can be mirrored into a header (not number, object, array or null, nor several types). Make it one (.int() on a number, .optional() rather than .nullable()) or remove the x-mcp-header, ${DROPPED}`,
      });
    }
  }
  return faults;
}

/**
 * Every `x-mcp-header` in a schema, at any depth, with its field's path. `reachable` while the path
 * from the root is `properties` keys alone; the root's own annotation is on no property, so it is not.
 */
function* annotationsOf(schema: unknown, path: string, reachable: boolean): Generator<Annotation> {
  if (!isObject(schema)) return;
  if ("x-mcp-header" in schema)
    yield { name: schema["x-mcp-header"], path, schema, reachable: reachable && path !== "" };
  const at = (step: string) => (path === "" ? step : `${path}.${step}`);
  for (const [keyword, value] of Object.entries(schema)) {
    if (DATA.has(keyword)) continue;
    if (keyword === "properties" && isObject(value)) {
      for (const [key, property] of Object.entries(value)) yield* annotationsOf(property, at(key), reachable);
    } else if (MAPS.has(keyword) && isObject(value)) {
      for (const [key, sub] of Object.entries(value)) yield* annotationsOf(sub, at(`${keyword}.${key}`), false);
    } else if (Array.isArray(value)) {
      for (const [i, sub] of value.entries()) yield* annotationsOf(sub, at(`${keyword}[${i}]`), false);
    } else if (keyword === "items") {
      yield* annotationsOf(value, `${path}[]`, false);
    } else {
      yield* annotationsOf(value, at(keyword), false);
    }
  }
}
