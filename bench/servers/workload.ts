/**
 * The workload every server serves, as plain functions (no schema library, so the bare server can use
 * them without importing zod): `add` and `echo` answer text, `stats` answers a structured value.
 */
export const SERVER_INFO = { name: "bench", version: "1.0.0" };

export function add(a: number, b: number): string {
  return String(a + b);
}

export interface Stats {
  sum: number;
  count: number;
  mean: number;
}

export function stats(values: number[]): Stats {
  let sum = 0;
  for (const value of values) sum += value;
  return { sum, count: values.length, mean: sum / values.length };
}
