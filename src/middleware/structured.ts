import { isComplete } from "../content/results.js";
import { isObject } from "../core/jsonrpc.js";
import { type Validation, validate } from "../core/schema.js";
import { sendsStructured, type Tool } from "../core/tools.js";
import type { MaybePromise } from "../core/types.js";
import type { ChainCall } from "../core/wrapping.js";

type Result = Record<string, unknown>;

/**
 * The `structuredContent` of a tool call's result a middleware returned, checked by the tool's output
 * schema as the tool's own result is (content/output.ts), its parsed value sent: the official clients
 * read the tool's `outputSchema` from tools/list and refuse a result without `structuredContent`, or
 * with one the schema rejects (2025-11-25 "Output Schema": structured results MUST conform to it).
 * A value the tool made, or this check parsed, is checked once: a middleware that passes it on, or
 * keeps a result to answer again (a cache), does not pay for the schema again.
 */
export class StructuredCheck {
  readonly #tools: ReadonlyMap<string, Tool>;
  /** The structured values already checked, with the tool whose schema checked them. */
  readonly #checked = new WeakMap<object, Tool>();

  constructor(tools: ReadonlyMap<string, Tool>) {
    this.#tools = tools;
  }

  /** Notes the tool's own result, at the end of the chain: its value was checked by its schema. */
  handled(call: ChainCall, result: Result): Result {
    const tool = this.#toolOf(call);
    if (tool && isObject(result.structuredContent)) this.#checked.set(result.structuredContent, tool);
    return result;
  }

  /** `result` as it is sent for the tool `call` names, or a TypeError saying what `who` must return instead. */
  checked(call: ChainCall, result: Result, who: string): MaybePromise<Result> {
    const tool = this.#toolOf(call);
    const output = tool?.output;
    // A tool error has no structured value; nor a 2025 client's call of a tool whose schema it is not sent.
    if (!tool || !output || result.isError === true || !isComplete(call, result)) return result;
    if (!sendsStructured(tool.descriptor, call.ctx.era)) return result;
    const value = result.structuredContent;
    if (isObject(value) && this.#checked.get(value) === tool) return result;
    const said = `${who} for "tools/call" returned a result for tool "${tool.name}"`;
    if (value === undefined) {
      throw new TypeError(
        `${said} without structuredContent, which its output schema requires (the clients refuse such a result): return the value as structuredContent (and its JSON text in content), or a tool error with isError: true`,
      );
    }
    const validation = validate(output, value);
    const parsed = (done: Validation<unknown>) => {
      if (!done.ok)
        throw new TypeError(`${said} whose structuredContent does not match its output schema:\n${done.issues}`);
      if (isObject(done.value)) this.#checked.set(done.value, tool);
      // A copy: a result the middleware keeps (a cache) or froze stays as it was.
      return { ...result, structuredContent: done.value };
    };
    return validation instanceof Promise ? validation.then(parsed) : parsed(validation);
  }

  #toolOf(call: ChainCall): Tool | undefined {
    const name = call.params?.name;
    return typeof name === "string" ? this.#tools.get(name) : undefined;
  }
}
