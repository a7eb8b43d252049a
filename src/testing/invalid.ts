import { isObject } from "../core/jsonrpc.js";

type JsonSchema = Record<string, unknown>;

/** One generated bad input: the arguments, the field they break, and how. */
export interface InvalidCase {
  readonly args: Record<string, unknown>;
  readonly field: string;
  readonly why: string;
}

const SAMPLES: [type: string, value: unknown][] = [
  ["string", "not-a-valid-value"],
  ["number", 12345.5],
  ["boolean", true],
  ["array", []],
  ["object", {}],
  ["null", null],
];

const FORMATS: Record<string, string> = {
  date: "not-a-date",
  "date-time": "not-a-date-time",
  time: "not-a-time",
  email: "not-an-email",
  uri: "not a uri",
  url: "not a url",
  uuid: "not-a-uuid",
  ipv4: "999.1.1",
};

/**
 * Arguments that the input schema rejects, made from a valid example: each required field left
 * out in turn, each field given a value of a type it does not accept, and each bound crossed
 * (minimum, maximum, lengths, item counts, enums, well-known formats). Top-level fields only.
 */
export function invalidInputs(schema: JsonSchema, base: Record<string, unknown>): InvalidCase[] {
  const cases: InvalidCase[] = [];
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required: unknown[] = Array.isArray(schema.required) ? schema.required : [];
  for (const field of required) {
    if (typeof field !== "string" || !(field in properties)) continue;
    const { [field]: _, ...rest } = base;
    cases.push({ args: rest, field, why: "missing required field" });
  }
  for (const [field, property] of Object.entries(properties)) {
    if (!isObject(property)) continue;
    const accepted = typesOf(property);
    if (accepted) {
      const wrong = SAMPLES.find(([type]) => !accepted.has(type) && !(type === "number" && accepted.has("integer")));
      if (wrong) cases.push({ args: { ...base, [field]: wrong[1] }, field, why: `wrong type (${wrong[0]})` });
    }
    for (const [value, why] of outOfRange(property)) cases.push({ args: { ...base, [field]: value }, field, why });
  }
  return cases;
}

/** The JSON types a property accepts, or undefined when the schema does not say (or accepts anything). */
function typesOf(property: JsonSchema): Set<string> | undefined {
  const types = new Set<string>();
  const add = (schema: JsonSchema): boolean => {
    if (typeof schema.type === "string") types.add(schema.type);
    else if (Array.isArray(schema.type)) {
      for (const type of schema.type) if (typeof type === "string") types.add(type);
    } else if (Array.isArray(schema.enum)) for (const value of schema.enum) types.add(jsonType(value));
    else if ("const" in schema) types.add(jsonType(schema.const));
    else {
      const branches: unknown = schema.anyOf ?? schema.oneOf;
      if (!Array.isArray(branches)) return false;
      return branches.every((branch) => isObject(branch) && add(branch));
    }
    return true;
  };
  if (!add(property)) return undefined;
  if (types.has("integer")) types.add("number");
  return types;
}

function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value === "number" ? "number" : typeof value;
}

function outOfRange(property: JsonSchema): [value: unknown, why: string][] {
  const out: [unknown, string][] = [];
  const number = (key: string) => {
    const value = property[key];
    return typeof value === "number" ? value : undefined;
  };
  const minimum = number("minimum");
  const maximum = number("maximum");
  const exclusiveMinimum = number("exclusiveMinimum");
  const exclusiveMaximum = number("exclusiveMaximum");
  if (minimum !== undefined) out.push([minimum - 1, `below minimum ${minimum}`]);
  if (exclusiveMinimum !== undefined) out.push([exclusiveMinimum, `not above ${exclusiveMinimum}`]);
  if (maximum !== undefined) out.push([maximum + 1, `above maximum ${maximum}`]);
  if (exclusiveMaximum !== undefined) out.push([exclusiveMaximum, `not below ${exclusiveMaximum}`]);
  if (property.type === "integer") out.push([(minimum ?? 0) + 0.5, "not an integer"]);
  const minLength = number("minLength");
  const maxLength = number("maxLength");
  if (minLength !== undefined && minLength > 0) out.push(["x".repeat(minLength - 1), `shorter than ${minLength}`]);
  if (maxLength !== undefined) out.push(["x".repeat(maxLength + 1), `longer than ${maxLength}`]);
  const minItems = number("minItems");
  const maxItems = number("maxItems");
  if (minItems !== undefined && minItems > 0) out.push([[], `fewer than ${minItems} items`]);
  if (maxItems !== undefined)
    out.push([Array.from({ length: maxItems + 1 }, () => null), `more than ${maxItems} items`]);
  if (Array.isArray(property.enum) && property.enum.every((value) => typeof value === "string")) {
    out.push(["not-one-of-the-allowed-values", `not one of ${property.enum.join(", ")}`]);
  }
  const format = typeof property.format === "string" ? FORMATS[property.format] : undefined;
  if (format !== undefined) out.push([format, `not a ${property.format}`]);
  return out;
}
