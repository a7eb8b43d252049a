/** What the client's `Accept` header lets the server answer with. */
export interface Accepts {
  readonly json: boolean;
  readonly sse: boolean;
}

const BOTH: Accepts = { json: true, sse: true };

/** The last header read and what it gave: a client sends the same `Accept` on every request. */
let last: { header: string; accepts: Accepts } | undefined;

/**
 * Reads `Accept` as media ranges with weights (RFC 9110 §12.5.1): a type is acceptable when the most
 * specific range that matches it (`text/event-stream`, then `text/*`, then the wildcard of all types)
 * has a weight above 0 ("q=0" means "not acceptable"). A missing header accepts both, and so does
 * an empty one: it lists no range, and a server may disregard Accept rather than answer 406 (§12.5.1).
 */
export function accepts(header: string | null): Accepts {
  if (header === null) return BOTH;
  if (last?.header === header) return last.accepts;
  const ranges = new Map<string, boolean>();
  for (const element of header.toLowerCase().split(",")) {
    const [range = "", ...parameters] = element.split(";");
    const type = range.trim();
    // An empty element ("a, , b" or an empty field) names no range (RFC 9110 §5.6.1 lists).
    if (!type) continue;
    const weight = parameters.find((parameter) => parameter.trim().startsWith("q="));
    ranges.set(type, weight === undefined || Number(weight.split("=")[1]) > 0);
  }
  const allows = (type: string, subtype: string) =>
    ranges.get(`${type}/${subtype}`) ?? ranges.get(`${type}/*`) ?? ranges.get("*/*") ?? false;
  const read = ranges.size ? { json: allows("application", "json"), sse: allows("text", "event-stream") } : BOTH;
  last = { header, accepts: read };
  return read;
}
