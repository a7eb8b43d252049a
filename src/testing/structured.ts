import { isObject } from "../core/jsonrpc.js";
import { type Schema, validate } from "../core/schema.js";

/**
 * What is wrong with a representative call's `structuredContent`, read with the tool's output
 * schema; undefined when nothing is. The seed's rules ("Tools", structured output): a value that
 * does not match the schema is never sent as data, and fields the schema does not name never leak.
 * picomcp's pipeline keeps both, so what breaks them is the server's own code around it (a
 * middleware that rewrites results). Reading the sent value again gives it back unchanged: the
 * schema has no transforms, since an output schema must be written as JSON Schema.
 */
export async function structuredMismatch(output: Schema, structured: unknown): Promise<string | undefined> {
  const read = await validate(output, structured);
  if (!read.ok) return `structuredContent does not match the output schema:\n${read.issues}`;
  const leaked = unnamed(structured, read.value, "");
  if (leaked.length > 0) return `structuredContent has fields the output schema does not name: ${leaked.join(", ")}`;
  if (JSON.stringify(read.value) !== JSON.stringify(structured)) {
    return "structuredContent is not what the output schema makes of it (a default or a value it would have changed)";
  }
  return undefined;
}

/** The paths of the fields `sent` has and `read` (the schema's reading of it) does not. */
function unnamed(sent: unknown, read: unknown, path: string): string[] {
  if (Array.isArray(sent) && Array.isArray(read)) {
    return sent.flatMap((item, index) => unnamed(item, read[index], `${path}[${index}]`));
  }
  if (!isObject(sent) || !isObject(read)) return [];
  return Object.keys(sent).flatMap((key) => {
    const at = path ? `${path}.${key}` : key;
    return key in read ? unnamed(sent[key], read[key], at) : [at];
  });
}
