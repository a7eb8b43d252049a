import type { AnyAccess } from "../auth/access.js";
import { WWW_AUTHENTICATE_META } from "../auth/enforce.js";
import type { IdentityInit } from "../auth/identity.js";
import { isMcpError, isThrown, messageOf } from "../core/errors.js";
import type { CallToolResult } from "../core/tools.js";
import type { CallOptions } from "../local.js";
import { type AnyServer, registryOf, type Server } from "../server.js";
import { invalidInputs } from "./invalid.js";
import { structuredMismatch } from "./structured.js";

/** An invalid input, with the field the error must name. */
export interface InvalidInput {
  args: Record<string, unknown>;
  /** The field the error message must name. */
  field?: string;
}

/** A call that must be refused: arguments (default: the first valid input) and a caller (`null`: anonymous). */
export interface UnauthorizedCall {
  args?: Record<string, unknown>;
  as: IdentityInit | null;
  /** The refusal must carry a sign-in or step-up challenge (`_meta["mcp/www_authenticate"]`). */
  challenge?: boolean;
}

/** The documented behaviour of one tool, as the tool-design guide asks: representative, invalid and unauthorized inputs. */
export interface ToolContract {
  /** Representative inputs: each must succeed (and match the output schema, when there is one). */
  valid: Record<string, unknown>[];
  /** Inputs the input schema must reject, on top of the generated ones. */
  invalid?: InvalidInput[];
  /** Calls that must be refused, on top of the generated ones (anonymous, each scope and role missing). */
  unauthorized?: UnauthorizedCall[];
  /**
   * Who makes the valid and invalid calls. Default: a caller with exactly the scopes and roles the
   * tool's `auth` asks for (give one for a tool whose `allow` check needs a particular caller).
   */
  as?: IdentityInit | null;
  /** Generate invalid inputs from the input schema and unauthorized calls from `auth`. Default: true. */
  generate?: boolean;
  /** More options for every call: the client it pretends to be, answers to the tool's questions. */
  call?: Omit<CallOptions, "auth" | "signal">;
}

export interface ContractOptions {
  /** Allow tools without a contract. Default: false, every registered tool needs one. */
  partial?: boolean;
}

/** What ran, per tool and in total. */
export interface ContractCounts {
  valid: number;
  invalid: number;
  unauthorized: number;
}

export interface ContractReport extends ContractCounts {
  tools: Record<string, ContractCounts>;
}

/** Thrown by `contract` when a tool broke its contract; `failures` lists every broken expectation. */
export class ContractError extends Error {
  override name = "ContractError";
  readonly failures: string[];

  constructor(failures: string[]) {
    super(`${failures.length} contract failure${failures.length === 1 ? "" : "s"}:\n- ${failures.join("\n- ")}`);
    this.failures = failures;
  }
}

const SUBJECT = "contract-test";

/**
 * Tests each tool's contract in-process, through `server.call`: every representative input
 * succeeds; every invalid one — given, and generated from the input schema (missing required
 * fields, wrong types, out-of-range values) — is a tool error naming the field; every unauthorized
 * call — given, and generated from the tool's `auth` (anonymous, each required scope or role
 * missing) — is refused. On every rejected call `run` must not have executed. Throws a
 * `ContractError` listing every failure, or answers the counts.
 */
export async function contract(
  server: AnyServer,
  contracts: Record<string, ToolContract>,
  options: ContractOptions = {},
): Promise<ContractReport> {
  await server.ready();
  // Any server: its tools' names and argument types are erased here, and each call is checked at run time.
  const registry = registryOf(server as Server<never>);
  const failures: string[] = [];
  const report: ContractReport = { valid: 0, invalid: 0, unauthorized: 0, tools: {} };
  for (const name of Object.keys(contracts)) {
    if (!registry.tools.has(name)) failures.push(`${name}: no tool of that name is registered`);
  }
  if (!options.partial) {
    for (const name of registry.tools.keys()) {
      if (!(name in contracts)) failures.push(`${name}: no contract (test it, or pass { partial: true })`);
    }
  }
  for (const [name, spec] of Object.entries(contracts)) {
    const tool = registry.tools.get(name);
    if (!tool) continue;
    const access = registry.auth?.accessOf(tool.auth) ?? tool.auth ?? "public";
    const counts: ContractCounts = { valid: 0, invalid: 0, unauthorized: 0 };
    report.tools[name] = counts;
    // `run` is watched for the length of the contract, so a rejected call that ran anyway is caught.
    let runs = 0;
    registry.tools.set(name, {
      ...tool,
      run: (args, ctx) => {
        runs++;
        return tool.run(args, ctx);
      },
    });
    const call = async (args: Record<string, unknown>, as: IdentityInit | null | undefined) => {
      const before = runs;
      let result: CallToolResult | undefined;
      // Whether it threw, apart from what: a middleware or tool may throw null or undefined.
      let threw = false;
      let thrown: unknown;
      try {
        const options: CallOptions = as ? { ...spec.call, auth: as } : { ...spec.call };
        result = await (server as Server<never>).call(name as never, args as never, options);
      } catch (error) {
        threw = true;
        thrown = error;
      }
      return { result, threw, thrown, ran: runs > before };
    };
    const fail = (what: string, why: string) => failures.push(`${name}: ${what}: ${why}`);
    const caller = spec.as === undefined ? callerFor(access) : spec.as;
    try {
      if (spec.valid.length === 0) fail("valid", "give at least one representative input");
      for (const args of spec.valid) {
        counts.valid++;
        const { result, threw, thrown, ran } = await call(args, caller);
        const what = `valid ${show(args)}`;
        if (threw) fail(what, `threw ${describe(thrown)}`);
        else if (result?.isError) fail(what, `returned a tool error: ${textOf(result)}`);
        else if (!ran) fail(what, "run did not execute");
        else if (tool.output && !structuredMatchesText(result!)) {
          fail(what, "structuredContent is missing, or its text copy says something else");
        } else if (tool.output) {
          const mismatch = await structuredMismatch(tool.output, result!.structuredContent);
          if (mismatch) fail(what, mismatch);
        }
      }
      const base = spec.valid[0] ?? {};
      const invalid: InvalidInput[] = [...(spec.invalid ?? [])];
      if (spec.generate !== false && tool.input) {
        for (const generated of invalidInputs(tool.descriptor.inputSchema, base)) invalid.push(generated);
      }
      for (const { args, field } of invalid) {
        counts.invalid++;
        const { result, threw, thrown, ran } = await call(args, caller);
        const what = `invalid ${show(args)}${field ? ` (${field})` : ""}`;
        if (ran) fail(what, "run executed on a rejected call");
        if (threw) fail(what, `threw ${describe(thrown)} instead of returning a tool error`);
        else if (!result?.isError) fail(what, "was accepted");
        else if (!textOf(result).startsWith(`Invalid arguments for tool "${name}"`)) {
          fail(what, `the error is not a validation error: ${textOf(result)}`);
        } else if (field && !namesField(textOf(result), field)) fail(what, `the error does not name ${field}`);
      }
      const unauthorized = [...(spec.unauthorized ?? [])];
      if (spec.generate !== false) unauthorized.push(...unauthorizedCalls(access));
      const challenges = registry.auth?.metadataUrl !== undefined;
      for (const { args = base, as, challenge } of unauthorized) {
        counts.unauthorized++;
        const { result, threw, thrown, ran } = await call(args, as);
        const what = `unauthorized ${as ? `as ${show(as)}` : "anonymous"}`;
        if (ran) fail(what, "run executed on a refused call");
        if (threw && !isMcpError(thrown)) fail(what, `threw ${describe(thrown)}`);
        else if (!threw && !result?.isError) fail(what, "was allowed");
        else if (result && textOf(result).startsWith("Invalid arguments")) {
          fail(what, "was refused by validation, not by authorization (pass valid arguments)");
        } else if (result && challenge && challenges && !Array.isArray(result._meta?.[WWW_AUTHENTICATE_META])) {
          fail(what, `the refusal carries no _meta["${WWW_AUTHENTICATE_META}"] challenge`);
        }
      }
    } finally {
      registry.tools.set(name, tool);
    }
    report.valid += counts.valid;
    report.invalid += counts.invalid;
    report.unauthorized += counts.unauthorized;
  }
  if (failures.length > 0) throw new ContractError(failures);
  return report;
}

/** A caller with exactly what the rule asks for (no caller for a public tool). */
function callerFor(access: AnyAccess): IdentityInit | null {
  if (access === "public") return null;
  if (typeof access === "string" || typeof access === "function") return { subject: SUBJECT };
  return { subject: SUBJECT, scopes: [...(access.scopes ?? [])], roles: [...(access.roles ?? [])] };
}

/** Anonymous, and each scope or role missing in turn. */
function unauthorizedCalls(access: AnyAccess): UnauthorizedCall[] {
  if (access === "public") return [];
  const calls: UnauthorizedCall[] = [{ as: null, challenge: true }];
  if (typeof access !== "object") return calls;
  const scopes = access.scopes ?? [];
  const roles = access.roles ?? [];
  for (const scope of scopes) {
    calls.push({
      as: { subject: SUBJECT, scopes: scopes.filter((s) => s !== scope), roles: [...roles] },
      challenge: true,
    });
  }
  for (const role of roles) {
    calls.push({ as: { subject: SUBJECT, scopes: [...scopes], roles: roles.filter((r) => r !== role) } });
  }
  return calls;
}

function structuredMatchesText(result: CallToolResult): boolean {
  if (result.structuredContent === undefined) return false;
  try {
    return JSON.stringify(JSON.parse(textOf(result))) === JSON.stringify(result.structuredContent);
  } catch {
    return false;
  }
}

/**
 * Whether a validation error names `field` as the seed's does: on a line of its own after the first,
 * `field: message` (or a path inside it, `field.city: …`, `field[0]: …`). Anywhere in the text would
 * not do: "id" is in the "Invalid" every such error starts with.
 */
function namesField(error: string, field: string): boolean {
  return error
    .split("\n")
    .slice(1)
    .some((line) => [":", ".", "["].some((after) => line.startsWith(`${field}${after}`)));
}

function textOf(result: CallToolResult): string {
  return result.content.map((block) => (block.type === "text" ? block.text : "")).join("\n");
}

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** What a call threw, said without throwing in turn (a value without a prototype, a Proxy). */
function describe(thrown: unknown): string {
  const message = messageOf(thrown);
  return isThrown(thrown, Error) ? `${thrown.name}: ${message}` : message;
}
