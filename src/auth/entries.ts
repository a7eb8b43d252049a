/**
 * The caller checks of resources, prompts and completions (their `auth` rules), as their layers call
 * them: the code that checks (enforce.ts) loads with the first entry whose rule is not public, so a
 * server without auth, whose entries are all public, never loads it. (Tools reach the same code
 * through the core's `enforceLayer`.)
 */
import type { RequestContext } from "../core/context.js";
import type { McpError } from "../core/errors.js";
import { Layer } from "../core/layers.js";
import type { Registered, Registry } from "../core/registry.js";
import { accessOf } from "../core/tools.js";
import type { AnyAccess } from "./access.js";
import type { AuthSettings } from "./settings.js";

type Enforce = typeof import("./enforce.js");

const enforce = new Layer<Enforce>();
enforce.wire(() => import("./enforce.js"));

/** A server as the resources and prompts layers register entries on it (server.ts): its registry, and its auth. */
export interface EntryHost {
  readonly registry: Registry;
  /**
   * A registration under the server's auth (server.ts's #ruled): the ruled entry to add, or
   * undefined to add it as declared (`swap` puts the ruled one in its place once the settings load).
   */
  ruled<T>(declared: unknown, rule: (settings: AuthSettings) => T, swap: (ruled: T) => void): T | undefined;
}

/** Adds a resource (by URI or template) or a prompt (by name), checked by its layer, under the server's auth. */
export function addEntry<K extends "resource" | "prompt">(
  { registry, ruled }: EntryHost,
  { kind, key, entry }: { kind: K; key: string; entry: Registered[K] },
): void {
  const rule = (settings: AuthSettings) => settings.ruleEntry(entry, key, kind === "resource" ? "Resource" : "Prompt");
  registry.add(kind, key, ruled(entry.config.auth, rule, (done) => registry.swap(kind, key, done)) ?? entry);
}

/** A resource, prompt or completion reference, as its caller checks name it. */
export interface Entry {
  /** Its `auth` rule, as registered. */
  readonly declared: AnyAccess | undefined;
  /** How refusals name it: `resource docs://a`, `prompt "greet"`. */
  readonly what: string;
  /** The error of an entry that does not exist, which a hidden one answers (`hideUnauthorized`). */
  readonly notFound?: (() => McpError) | undefined;
}

/** The caller checks, for an entry under a rule that needs them; undefined for a public one. */
export function checksFor(
  ctx: RequestContext,
  declared: AnyAccess | undefined,
): Enforce | Promise<Enforce> | undefined {
  if (accessOf(ctx, declared) === "public") return undefined;
  return enforce.now ?? enforce.load();
}

/** Refuses a caller the entry's rule does not admit (token, scopes, roles): a JSON-RPC error, or a challenge. */
export async function checkCaller(ctx: RequestContext, entry: Entry): Promise<void> {
  const checks = await checksFor(ctx, entry.declared);
  const refused = checks?.checkCallerOf(ctx, entry.declared, entry.what);
  if (checks && refused) checks.refuse(ctx, refused, entry.notFound);
}

/** Refuses a caller whom the rule's `allow` check does not let use the entry with these (validated) arguments. */
export async function checkAllowed(ctx: RequestContext, entry: Entry, args: unknown): Promise<void> {
  const checks = await checksFor(ctx, entry.declared);
  if (checks && !(await checks.allows(ctx, entry.declared, args))) checks.refuse(ctx, checks.forbidden(entry.what));
}
