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

/** A compiled template: `match` returns the variables of a URI it covers, or undefined. */
export class UriTemplate {
  readonly template: string;
  readonly variables: readonly string[];
  readonly #pattern: RegExp;
  readonly #query: string[];

  /** Throws a TypeError for a template that is not well formed (see uri-template-syntax.ts). */
  constructor(template: string | TemplateSyntax) {
    const syntax = typeof template === "string" ? parseTemplate(template) : template;
    this.template = syntax.template;
    this.variables = syntax.variables;
    const query: string[] = [];
    let source = "^";
    syntax.literals.forEach((literal, at) => {
      source += escapeRegExp(literal);
      const expression = syntax.expressions[at];
      if (!expression) return;
      const { operator, specs, names } = expression;
      if (operator === "?" || operator === "&") {
        // Query variables may come in any order, or not at all: read them from the query string.
        query.push(...names);
        source += "(?:[?&].*)?";
      } else {
        source += names
          .map((name, index) => group(operator, name, { first: index === 0, explode: specs[index]?.endsWith("*") }))
          .join("");
      }
    });
    this.#pattern = new RegExp(`${source}$`);
    this.#query = query;
  }

  match(uri: string): Record<string, string> | undefined {
    const found = this.#pattern.exec(uri);
    if (!found) return undefined;
    // Template names may be "__proto__" or "toString" (RFC 6570 varname): the variables are own
    // properties of an object without a prototype, so each name is only a name.
    const variables: Record<string, string> = Object.create(null);
    for (const [name, value] of Object.entries(found.groups ?? {})) {
      if (value !== undefined) variables[unmangle(name)] = decode(value);
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
}

/**
 * One capture group per variable; its allowed characters follow the operator (RFC 6570 §3.2). An
 * exploded variable (`*`) holds a list joined by the operator's separator (§2.4.2), so it may contain it.
 */
function group(
  operator: string,
  name: string,
  { first, explode }: { first: boolean; explode: boolean | undefined },
): string {
  const capture = `(?<${mangle(name)}>`;
  switch (operator) {
    case "+":
      return `${capture}.*?)`;
    case "#":
      return `${first ? "#" : ","}${capture}.*?)`;
    case ".":
      return `\\.${capture}[^/?#${explode ? "" : "."}]*)`;
    case "/":
      return `/${capture}[^?#${explode ? "" : "/"}]*)`;
    case ";":
      return `;${escapeRegExp(name)}=?${capture}[^/?#;]*)`;
    default:
      return `${first ? "" : ","}${capture}[^/?#${explode ? "" : ","}]*)`;
  }
}

// Group names must be identifiers; template names may contain "." and "%".
function mangle(name: string): string {
  return `v_${name.replace(/[^A-Za-z0-9_]/g, (char) => `$${char.charCodeAt(0)}$`)}`;
}

function unmangle(group: string): string {
  return group.slice(2).replace(/\$(\d+)\$/g, (_, code: string) => String.fromCharCode(Number(code)));
}

function escapeRegExp(literal: string): string {
  return literal.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function decode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
