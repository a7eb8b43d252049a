/**
 * RFC 6570 URI templates, as far as resource templates use them: matching a concrete URI back to
 * its variables. Supported: `{var}`, `{+var}`, `{#var}`, `{.var}`, `{/var}`, `{;var}`, `{?a,b}`,
 * `{&a}`, with the `*` explode and `:n` prefix modifiers accepted on names.
 */

/** The variable names of a template, for typing `read`'s arguments: "users/{id}{?q}" → "id" | "q". */
export type TemplateVariables<T extends string> = T extends `${string}{${infer Expression}}${infer Rest}`
  ? ExpressionNames<Expression> | TemplateVariables<Rest>
  : never;

type ExpressionNames<E extends string> = E extends `${"+" | "#" | "." | "/" | ";" | "?" | "&"}${infer Names}`
  ? SplitNames<Names>
  : SplitNames<E>;

type SplitNames<N extends string> = N extends `${infer Head},${infer Tail}`
  ? CleanName<Head> | SplitNames<Tail>
  : CleanName<N>;
type CleanName<N extends string> = N extends `${infer Name}*` ? Name : N extends `${infer Name}:${string}` ? Name : N;

interface Part {
  operator: string;
  names: string[];
}

const EXPRESSION = /\{([+#./;?&]?)([^}]*)\}/g;

export function isTemplate(uri: string): boolean {
  return uri.includes("{");
}

/** A compiled template: `match` returns the variables of a URI it covers, or undefined. */
export class UriTemplate {
  readonly template: string;
  readonly variables: string[];
  readonly #pattern: RegExp;
  readonly #query: string[];

  constructor(template: string) {
    this.template = template;
    const parts: Part[] = [];
    let source = "^";
    let last = 0;
    const query: string[] = [];
    for (const match of template.matchAll(EXPRESSION)) {
      source += escapeRegExp(template.slice(last, match.index));
      last = match.index + match[0].length;
      const operator = match[1] ?? "";
      const names = (match[2] ?? "").split(",").map((name) => name.replace(/\*$|:\d+$/, ""));
      if (names.some((name) => !/^[A-Za-z0-9_.%]+$/.test(name))) {
        throw new TypeError(`Resource template "${template}" has an invalid expression "${match[0]}".`);
      }
      parts.push({ operator, names });
      if (operator === "?" || operator === "&") {
        // Query variables may come in any order, or not at all: read them from the query string.
        query.push(...names);
        source += "(?:[?&].*)?";
        continue;
      }
      source += names.map((name, index) => group(operator, name, index)).join("");
    }
    source += `${escapeRegExp(template.slice(last))}$`;
    this.#pattern = new RegExp(source);
    this.#query = query;
    this.variables = parts.flatMap((part) => part.names);
  }

  match(uri: string): Record<string, string> | undefined {
    const found = this.#pattern.exec(uri);
    if (!found) return undefined;
    const variables: Record<string, string> = {};
    for (const [name, value] of Object.entries(found.groups ?? {})) {
      if (value !== undefined) variables[unmangle(name)] = decode(value);
    }
    if (this.#query.length > 0) {
      const at = uri.indexOf("?");
      const params = new URLSearchParams(at === -1 ? "" : uri.slice(at + 1).replace(/#.*$/, ""));
      for (const name of this.#query) {
        const value = params.get(name);
        if (value !== null) variables[name] = value;
      }
    }
    return variables;
  }
}

/** One capture group per variable; its allowed characters follow the operator (RFC 6570 §3.2). */
function group(operator: string, name: string, index: number): string {
  const capture = `(?<${mangle(name)}>`;
  const first = index === 0;
  switch (operator) {
    case "+":
      return `${capture}.*?)`;
    case "#":
      return `${first ? "#" : ","}${capture}.*?)`;
    case ".":
      return `\\.${capture}[^/?#.]*)`;
    case "/":
      return `/${capture}[^/?#]*)`;
    case ";":
      return `;${escapeRegExp(name)}=?${capture}[^/?#;]*)`;
    default:
      return `${first ? "" : ","}${capture}[^/?#,]*)`;
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
