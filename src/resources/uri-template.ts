/**
 * RFC 6570 URI templates, as far as resource templates use them: matching a concrete URI back to
 * its variables (loaded with the first request that reads resources; the syntax is checked at
 * registration, in uri-template-syntax.ts). Supported: `{var}`, `{+var}`, `{#var}`, `{.var}`, `{/var}`, `{;var}`, `{?a,b}`,
 * `{&a}`, with the `*` explode and `:n` prefix modifiers accepted on names.
 */

import { parseTemplate, type TemplateSyntax } from "./uri-template-syntax.js";

export { isTemplate } from "./uri-template-syntax.js";

/** The variable names of a template, for typing `read`'s arguments: "users/{id}{?q}" → "id" | "q". */
export type TemplateVariables<T extends string> = T extends `${string}{${infer Expression}}${infer Rest}`
  ? ExpressionNames<Expression> | TemplateVariables<Rest>
  : never;

/** The variables of `{?…}` and `{&…}` expressions, which a URI may leave out: "users/{id}{?q}" → "q". */
export type QueryVariables<T extends string> = T extends `${string}{${infer Expression}}${infer Rest}`
  ? (Expression extends `${"?" | "&"}${infer Names}` ? SplitNames<Names> : never) | QueryVariables<Rest>
  : never;

type ExpressionNames<E extends string> = E extends `${"+" | "#" | "." | "/" | ";" | "?" | "&"}${infer Names}`
  ? SplitNames<Names>
  : SplitNames<E>;

type SplitNames<N extends string> = N extends `${infer Head},${infer Tail}`
  ? CleanName<Head> | SplitNames<Tail>
  : CleanName<N>;
type CleanName<N extends string> = N extends `${infer Name}*` ? Name : N extends `${infer Name}:${string}` ? Name : N;

/**
 * One step of a compiled template: literal text, or the run of characters a variable takes (or, for
 * `{?…}` and `{&…}`, the query string), none of them in `excluded`. A run with a `lead` is optional:
 * empty, or one of those characters followed by the run (`;x=…`, `?q=…`).
 */
type Step =
  | { kind: "text"; text: string }
  | { kind: "run"; name: string | undefined; excluded: string; lazy: boolean; lead: string | undefined };

/** A compiled template: `match` returns the variables of a URI it covers, or undefined. */
export class UriTemplate {
  readonly template: string;
  readonly variables: readonly string[];
  readonly #steps: Step[] = [];
  readonly #query: string[] = [];

  /** Throws a TypeError for a template that is not well formed (see uri-template-syntax.ts). */
  constructor(template: string | TemplateSyntax) {
    const syntax = typeof template === "string" ? parseTemplate(template) : template;
    this.template = syntax.template;
    this.variables = syntax.variables;
    syntax.literals.forEach((literal, at) => {
      this.#text(literal);
      const expression = syntax.expressions[at];
      if (!expression) return;
      const { operator, specs, names } = expression;
      if (operator === "?" || operator === "&") {
        // Query variables may come in any order, or not at all: read them from the query string.
        this.#query.push(...names);
        this.#steps.push({ kind: "run", name: undefined, excluded: "", lazy: false, lead: "?&" });
        return;
      }
      names.forEach((name, index) => {
        this.#variable(operator, name, { first: index === 0, explode: specs[index]?.endsWith("*") === true });
      });
    });
  }

  /**
   * Matched without backtracking, so a URI costs time in proportion to its length times the steps of
   * the template, however its variables could overlap (`{+a}/{+b}`, `{a}{b}{c}`): a table of which
   * steps can match each suffix of the URI, built from its end, then one walk from its start that
   * takes, at each choice, what a backtracking match would have tried first and the table says can
   * succeed: a reserved or fragment variable as short as it can be, any other as long.
   */
  match(uri: string): Record<string, string> | undefined {
    const steps = this.#steps;
    const first = steps[0];
    // Most templates fail on their scheme: no table for them.
    if (first?.kind === "text" && !uri.startsWith(first.text)) return undefined;
    const length = uri.length;
    const width = steps.length + 1;
    // at[i * width + j]: steps j… match uri from i; inside[…]: the same, once step j's lead is taken.
    const at = new Uint8Array((length + 1) * width);
    const inside = new Uint8Array((length + 1) * width);
    at[length * width + steps.length] = 1;
    const backwards = [...steps.entries()].reverse();
    for (let i = length; i >= 0; i--) {
      for (const [j, step] of backwards) {
        const here = i * width + j;
        if (step.kind === "text") {
          at[here] = Number(uri.startsWith(step.text, i) && at[(i + step.text.length) * width + j + 1] === 1);
          continue;
        }
        const char = uri.charAt(i);
        inside[here] =
          at[here + 1] || Number(i < length && !step.excluded.includes(char) && inside[here + width] === 1);
        at[here] =
          step.lead === undefined
            ? inside[here]
            : at[here + 1] || Number(i < length && step.lead.includes(char) && inside[here + width] === 1);
      }
    }
    if (!at[0]) return undefined;
    // Template names may be "__proto__" or "toString" (RFC 6570 varname): the variables are own
    // properties of an object without a prototype, so each name is only a name.
    const variables: Record<string, string> = Object.create(null);
    let i = 0;
    for (const [j, step] of steps.entries()) {
      if (step.kind === "text") {
        i += step.text.length;
        continue;
      }
      // An optional lead is taken whenever the rest can follow, as `(?:=…)?` would be.
      const leads = step.lead?.includes(uri.charAt(i)) && inside[(i + 1) * width + j] === 1;
      if (leads) i++;
      const start = i;
      if (step.lead === undefined || leads) {
        for (;;) {
          const leaves = at[i * width + j + 1] === 1;
          const takes = i < length && !step.excluded.includes(uri.charAt(i)) && inside[(i + 1) * width + j] === 1;
          if (step.lazy ? leaves : !takes) break;
          i++;
        }
      }
      if (step.name === undefined) continue;
      const value = decode(uri.slice(start, i));
      // Decoded too, a value holds none of the characters its operator excludes. RFC 6570 §3.2.2
      // expands "a/b" in `{id}` to "a%2Fb", but a `read` that counts on "no /" (a file name, a key)
      // would take "..%2F..%2Fetc" for a path: such a URI matches no template.
      if ([...step.excluded].some((excluded) => value.includes(excluded))) return undefined;
      variables[step.name] = value;
    }
    if (this.#query.length > 0) {
      const at = uri.indexOf("?");
      const pairs =
        at === -1
          ? []
          : uri
              .slice(at + 1)
              .replace(/#.*$/, "")
              .split("&");
      for (const pair of pairs) {
        const equals = pair.indexOf("=");
        const name = decode(equals === -1 ? pair : pair.slice(0, equals));
        // Percent-decoding only, as for the other variables: in a URI "+" is a plus sign, not a space (RFC 3986).
        if (this.#query.includes(name) && !Object.hasOwn(variables, name)) {
          variables[name] = equals === -1 ? "" : decode(pair.slice(equals + 1));
        }
      }
    }
    return variables;
  }

  #text(text: string): void {
    const last = this.#steps.at(-1);
    if (last?.kind === "text") last.text += text;
    else if (text !== "") this.#steps.push({ kind: "text", text });
  }

  /**
   * The steps of one variable: its operator's prefix or separator, then its run, whose characters
   * follow the operator (RFC 6570 §3.2). A list's later names follow a "," (§3.2.3 for "+", §3.2.4
   * for "#", §3.2.2 for simple ones). An exploded variable (`*`) holds a list joined by the
   * operator's separator (§2.4.2), so it may contain it; for ";" each item is `name=value` (§3.2.7).
   */
  #variable(operator: string, name: string, { first, explode }: { first: boolean; explode: boolean }): void {
    const run = (excluded: string, { lazy = false, lead }: { lazy?: boolean; lead?: string } = {}) =>
      this.#steps.push({ kind: "run", name, excluded, lazy, lead });
    switch (operator) {
      case "+":
        if (!first) this.#text(",");
        run("", { lazy: true });
        break;
      case "#":
        this.#text(first ? "#" : ",");
        run("", { lazy: true });
        break;
      case ".":
        this.#text(".");
        run(`/?#${explode ? "" : "."}`);
        break;
      case "/":
        this.#text("/");
        run(`?#${explode ? "" : "/"}`);
        break;
      case ";":
        // §3.2.7: ";x=1", or ";x" for an empty value; never ";xx=1", another name. Exploded, each item
        // is a parameter of its own, named by the variable in a list (";list=red;list=green") and by
        // its key in keys (";semi=%3B;dot=."): the run is all of them, each ";" included.
        this.#text(`;${explode ? "" : name}`);
        run(`/?#${explode ? "" : ";"}`, explode ? {} : { lead: "=" });
        break;
      default:
        if (!first) this.#text(",");
        run(`/?#${explode ? "" : ","}`);
    }
  }
}

function decode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
