/**
 * The syntax of RFC 6570 URI templates, as resource templates use them: checked when a resource is
 * registered, so a broken template fails at start-up. Matching URIs against a template is in
 * uri-template.ts, loaded with the first request that reads resources.
 */

/** One `{…}` expression: its operator and its variables, as written (`specs`) and by name. */
export interface Expression {
  readonly operator: string;
  readonly specs: readonly string[];
  readonly names: readonly string[];
}

/** A template taken apart: literals[i] comes before expressions[i], and the last literal ends it. */
export interface TemplateSyntax {
  readonly template: string;
  /** Every variable name, in order. */
  readonly variables: readonly string[];
  readonly literals: readonly string[];
  readonly expressions: readonly Expression[];
}

const EXPRESSION = /\{([+#./;?&]?)([^}]*)\}/g;
/** RFC 6570 §2.3: varchar is ALPHA / DIGIT / "_" / pct-encoded, and a "." only between two of them. */
const VARNAME = /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*$/;
/** §2.4: an explode "*", or a prefix ":" of 1 to 9999 characters. */
const MODIFIER = /\*$|:[1-9][0-9]{0,3}$/;

export function isTemplate(uri: string): boolean {
  // A lone "}" too: parseTemplate refuses it, as RFC 6570 §2.1 excludes braces from literals (and RFC 3986 from URIs).
  return /[{}]/.test(uri);
}

/** Takes a template apart, or throws a TypeError that says what is wrong with it. */
export function parseTemplate(template: string): TemplateSyntax {
  const variables: string[] = [];
  const literals: string[] = [];
  const expressions: Expression[] = [];
  let last = 0;
  // RFC 6570 §2.1: literals never contain "{" or "}", so a stray one is an unclosed or unopened expression.
  const literal = (text: string) => {
    if (/[{}]/.test(text)) throw new TypeError(`Resource template "${template}" has an unmatched "{" or "}".`);
    literals.push(text);
  };
  for (const match of template.matchAll(EXPRESSION)) {
    literal(template.slice(last, match.index));
    last = match.index + match[0].length;
    const specs = (match[2] ?? "").split(",");
    const names = specs.map((name) => name.replace(MODIFIER, ""));
    if (names.some((name) => !VARNAME.test(name))) {
      throw new TypeError(`Resource template "${template}" has an invalid expression "${match[0]}".`);
    }
    for (const name of names) {
      if (variables.includes(name)) {
        throw new TypeError(`Resource template "${template}" uses the variable "${name}" twice.`);
      }
      variables.push(name);
    }
    expressions.push({ operator: match[1] ?? "", specs, names });
  }
  literal(template.slice(last));
  return { template, variables, literals, expressions };
}
