/**
 * The check of a registration's `complete` (a resource template's, a prompt's), done when it is
 * registered, so a mistake fails at start-up: a completer under a name the entry does not have is
 * never asked, and one that is not a function would fail each completion/complete instead
 * ("completer is not a function").
 */
import { isObject } from "../core/jsonrpc.js";

/** Whose `complete` it is, and the names it may complete: a template's variables, a prompt's arguments. */
interface Completable {
  /** `Resource template "repos://{owner}"`, `Prompt "review"`. */
  readonly owner: string;
  readonly names: readonly string[];
  readonly kind: "variables" | "arguments";
}

/** Throws a TypeError that says what is wrong with `complete`, if anything is. */
export function checkCompleters(complete: unknown, { owner, names, kind }: Completable): void {
  if (complete === undefined) return;
  const listed = names.length > 0 ? names.join(", ") : "none";
  if (!isObject(complete)) {
    throw new TypeError(
      `${owner} complete must be an object: a completer function per name, among its ${kind} (${listed}).`,
    );
  }
  for (const [name, completer] of Object.entries(complete)) {
    if (!names.includes(name)) {
      throw new TypeError(`${owner} has a completer for "${name}", which is not one of its ${kind} (${listed}).`);
    }
    if (completer !== undefined && typeof completer !== "function") {
      throw new TypeError(
        `${owner} complete.${name} must be a function (value, context) => string[]; it is a value of type ${typeof completer}.`,
      );
    }
  }
}
