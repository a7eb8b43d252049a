import {
  type Field,
  invalidParams,
  OBJECT,
  optional,
  PROMPT_ARGUMENTS,
  problemOf,
  required,
} from "../content/check.js";
import { isLogLevel, LOG_LEVELS } from "../core/envelope.js";
import { isObject } from "../core/jsonrpc.js";
import type { Chain } from "../core/wrapping.js";

/**
 * The params of the built-in methods as their middleware is typed with them (middleware.ts's
 * `MethodTypes`): a request whose params are not of that shape is answered -32602 before any
 * middleware, as its handler would answer it, so that a middleware that reads `params.name.length`,
 * as its types allow, never throws on a request sent by hand. What is checked is what the spec's
 * schema of the request requires (2025-11-25 `CallToolRequest`, `GetPromptRequest`, …), which the
 * handlers refuse too.
 */
const PARAMS: Readonly<Record<string, { fields: Field[]; given?: boolean }>> = {
  "tools/call": { fields: [required("name"), optional("arguments", isObject, OBJECT)], given: true },
  "prompts/get": { fields: [required("name"), PROMPT_ARGUMENTS], given: true },
  "resources/read": { fields: [required("uri")], given: true },
  "resources/subscribe": { fields: [required("uri")], given: true },
  "resources/unsubscribe": { fields: [required("uri")], given: true },
  "completion/complete": {
    fields: [
      required("ref", isObject, OBJECT),
      { ...required("argument", isObject, OBJECT), fields: [required("name"), required("value")] },
    ],
    given: true,
  },
  "logging/setLevel": { fields: [required("level", isLogLevel, `one of ${LOG_LEVELS.join(", ")}`)], given: true },
  "tools/list": { fields: [optional("cursor")] },
  "resources/list": { fields: [optional("cursor")] },
  "resources/templates/list": { fields: [optional("cursor")] },
  "prompts/list": { fields: [optional("cursor")] },
};

/** `chain`, behind the check of the params `method`'s middleware is typed with, if it has any. */
export function checkingParams(method: string, chain: Chain | undefined): Chain | undefined {
  const expected = PARAMS[method];
  if (!chain || !expected) return chain;
  return (call, handler) => {
    const { params } = call;
    // `arguments: null` is none to the handlers of tools and prompts (core/tools.ts namedArguments,
    // prompts/run.ts), so it is served: it reaches middleware as none, as the types say.
    if (params?.arguments === null) delete params.arguments;
    const problem =
      params === undefined
        ? expected.given
          ? "needs params: an object"
          : undefined
        : problemOf(params, expected.fields, "params.");
    if (problem !== undefined) throw invalidParams(method, problem);
    return chain(call, handler);
  };
}
