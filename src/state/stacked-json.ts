/**
 * JSON.stringify's text of `value`, also where it nests too deep for JSON.stringify's recursion (a
 * RangeError): that is written with a stack (`stackedJson`), the same text for what JSON.parse made.
 * Anything else JSON cannot carry (a BigInt, a cycle) throws, as JSON.stringify does.
 */
export function deepJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (thrown) {
    if (!(thrown instanceof RangeError)) throw thrown;
    return stackedJson(value, false);
  }
}

/**
 * JSON text written with a stack, not recursion. JSON.stringify overflows the call stack on a value
 * nested some thousands deep, which JSON.parse reads: a client's message 100,000 arrays deep (its
 * params, its answer to a question) could be parsed, then not written again. For values JSON.parse
 * makes: each is written as JSON.stringify writes it (undefined members left out, undefined items as
 * null), but no `toJSON` is called. `sorted`: object keys in order, a canonical form for a digest.
 */
export function stackedJson(root: unknown, sorted: boolean): string {
  let json = "";
  // What is left to write, the next on top: a value, or text written as it is (a Literal).
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (value instanceof Literal) json += value.text;
    else if (Array.isArray(value)) {
      json += "[";
      stack.push(CLOSE_ARRAY);
      for (let i = value.length - 1; i >= 0; i--) {
        stack.push(value[i]);
        if (i > 0) stack.push(COMMA);
      }
    } else if (value && typeof value === "object") {
      json += "{";
      const entries = Object.entries(value).filter(([, item]) => item !== undefined);
      if (sorted) entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      stack.push(CLOSE_OBJECT);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, item] = entries[i]!;
        stack.push(item, new Literal(`${i > 0 ? "," : ""}${JSON.stringify(key)}:`));
      }
    } else json += JSON.stringify(value) ?? "null";
  }
  return json;
}

/** Text `stackedJson` writes as it is, where the stack holds values otherwise. */
class Literal {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

const COMMA = new Literal(",");
const CLOSE_ARRAY = new Literal("]");
const CLOSE_OBJECT = new Literal("}");
