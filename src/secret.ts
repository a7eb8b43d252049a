/**
 * `Secret`, a module of its own and outside the core, which never uses it (user code wraps its values
 * in it; the core's net under what a message leaks is core/safe.ts): a class with a computed method
 * name (Node's inspect symbol) is code esbuild cannot prove free of side effects, so it stays in
 * every bundle of the module that declares it; here, only a program that imports `secret` loads it.
 */
import { REDACTED } from "./core/safe.js";

/**
 * A value that must never reach a client: an API key, a password, an upstream token. However it is
 * turned into text — `JSON.stringify`, `String()`, a template literal, `console.log` — it comes out as
 * `"[redacted]"`, so a secret that slips into a result, an error message or a log line does not leak.
 * Only `reveal()` gives the value, at the one place that needs it.
 */
export class Secret<T = string> {
  readonly #value: T;

  constructor(value: T) {
    this.#value = value;
  }

  /** The value itself: pass it where it is used (an upstream request), never into a result. */
  reveal(): T {
    return this.#value;
  }

  toJSON(): string {
    return REDACTED;
  }

  toString(): string {
    return REDACTED;
  }

  [Symbol.toPrimitive](): string {
    return REDACTED;
  }

  /** What Node's `util.inspect` (and so `console.log`) shows. */
  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return `Secret(${REDACTED})`;
  }
}

/** Wraps a value so that it can never be serialized into a result (see `Secret`). */
export function secret<T>(value: T): Secret<T> {
  return new Secret(value);
}
