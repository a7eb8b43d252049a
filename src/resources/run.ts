/**
 * Resources at run time: the handlers of `resources/*`, whose rows the first `.resource()` installs
 * in the method table (wired in by server.ts), with `completion/complete` for template variables.
 * What is checked at registration stays in resources.ts and uri-template-syntax.ts.
 */
import { checkAllowed, checkCaller, checksFor } from "../auth/entries.js";
import { completionMethod } from "../completion/completion.js";
import { contentsProblem, resourceProblem } from "../content/check.js";
import { type ResourceContents, toBase64 } from "../core/content.js";
import type { RequestContext } from "../core/context.js";
import { ErrorCode, McpError } from "../core/errors.js";
import { isObject } from "../core/jsonrpc.js";
import { page, visible } from "../core/methods.js";
import type { Method, Registry } from "../core/registry.js";
import { shown } from "../core/safe.js";
import { checkRoom } from "../limits/subscriptions.js";
import { holdMessages } from "../transports/held.js";
import type { Resource, ResourceReturn } from "./resources.js";
import { SubscriptionSet } from "./subscriptions.js";
import { checkUriLength } from "./uri-length.js";
import { normalUri } from "./uri-normal.js";
import { UriTemplate } from "./uri-template.js";

type Params = Record<string, unknown> | undefined;
type Result = Record<string, unknown>;

/**
 * `resources/list`: fixed resources, and what each template's `list` finds, in registration order.
 * A template's `list` runs only for a caller its `auth` admits (token, scopes, roles): what it finds
 * is the data the rule protects.
 */
export async function listResources(registry: Registry, params: Params, ctx: RequestContext): Promise<Result> {
  const listed: unknown[] = [];
  for (const resource of registry.resources.values()) {
    const declared = resource.config.auth;
    let checks = checksFor(ctx, declared);
    if (checks instanceof Promise) checks = await checks;
    if (checks && !checks.shows(ctx, declared)) continue;
    if (!resource.template) listed.push(resource.descriptor);
    else if (resource.config.list && (!checks || checks.checkCallerOf(ctx, declared, "") === undefined)) {
      let found = resource.config.list(ctx);
      if (found instanceof Promise) found = await found;
      checkListed(resource.uri, found);
      const mimeType = resource.mimeType;
      for (const item of found)
        listed.push(mimeType === undefined || "mimeType" in item ? item : { ...item, mimeType });
    }
  }
  return page(registry, params, { key: "resources", items: listed, describe: (item) => item });
}

/**
 * What a template's `list` returned is an array of resources, each with a string uri and name and
 * each other field as the schema has it (2025-11-25 "Resource"): the official clients refuse the
 * whole of resources/list for one bad entry, every other resource with it, and say only which zod
 * path failed. A getter that throws is left to the response's writer, as in isContentsItem.
 */
function checkListed(template: string, found: unknown): asserts found is Record<string, unknown>[] {
  const fix = "return an array of { uri, name, title?, description?, mimeType?, size?, annotations?, icons? }.";
  if (!Array.isArray(found)) {
    const what = found === null ? "null" : `a value of type ${typeof found}`;
    throw new TypeError(`Resource template "${template}" list returned ${what}, not an array; ${fix}`);
  }
  let problem: string | undefined;
  const bad = found.findIndex((entry) => {
    try {
      problem = resourceProblem(entry);
    } catch {
      problem = undefined;
    }
    return problem !== undefined;
  });
  if (bad !== -1)
    throw new TypeError(`Resource template "${template}" list returned entry ${bad}, which ${problem}; ${fix}`);
}

/** `resources/templates/list`, in registration order. */
function listTemplates(registry: Registry, params: Params, ctx: RequestContext): Result | Promise<Result> {
  return visible(ctx, (shows) =>
    page(registry, params, {
      key: "resourceTemplates",
      items: [...registry.resources.values()].filter(
        (resource) => resource.template && shows(ctx, resource.config.auth),
      ),
      describe: (resource) => resource.descriptor,
    }),
  );
}

/** Each template compiled for matching once, on its first use, from its normal form (uri-normal.ts). */
const matchers = new WeakMap<Resource, UriTemplate>();

function matcherOf(resource: Resource): UriTemplate | undefined {
  if (!resource.template) return undefined;
  let matcher = matchers.get(resource);
  if (!matcher) {
    matcher = new UriTemplate(normalUri(resource.template.template));
    matchers.set(resource, matcher);
  }
  return matcher;
}

/** Each resource's URI (a template's, its expressions kept) in normal form, made on its first use. */
const normals = new WeakMap<Resource, string>();

export function normalOf(resource: Resource): string {
  let normal = normals.get(resource);
  if (normal === undefined) {
    normal = normalUri(resource.uri);
    normals.set(resource, normal);
  }
  return normal;
}

/**
 * `resources/read`: an exact URI first, then templates in registration order (resourceAt). An unknown URI is
 * an error, never empty contents: -32002 before 2026-07-28, -32602 since (§9), with `data.uri`.
 */
export async function readResource(registry: Registry, params: Params, ctx: RequestContext): Promise<Result> {
  const requested = requireUri(params, "resources/read");
  const found = resourceAt(registry, requested);
  if (!found) throw notFound(requested, ctx);
  const [resource, args] = found;
  const { uri } = args;
  const entry = { declared: resource.config.auth, what: `resource ${uri}`, notFound: () => notFound(requested, ctx) };
  await checkCaller(ctx, entry);
  await checkAllowed(ctx, entry, args);
  let returned = resource.config.read(args, ctx);
  if (returned instanceof Promise) returned = await returned;
  // A template matched, but `read` found nothing there: the same error as an unknown URI, never empty contents.
  if (returned === undefined) throw notFound(requested, ctx);
  return { contents: toContents(returned, uri, resource.mimeType) };
}

/** What `read` and an `allow` check get: the URI, and a template's variables. */
type Args = Record<string, string> & { uri: string };

/**
 * The registration that serves a URI, and what its `read` gets, comparing URIs in their normal form
 * (RFC 3986 §6.2.2; uri-normal.ts): a resource registered at that URI first, then templates in
 * registration order. A fixed resource gets the URI it was registered at, however it was spelt; a
 * template the URI as sent, and its variables read from it when it matches as sent (so a host's case
 * reaches `read`: "notes://Index" gives id "Index"), from its normal form otherwise.
 */
function resourceAt(registry: Registry, uri: string): [Resource, Args] | undefined {
  const exact = registry.resources.get(uri);
  if (exact && !exact.template) return [exact, { uri }];
  const normal = normalUri(uri);
  for (const candidate of registry.resources.values()) {
    if (!candidate.template && normalOf(candidate) === normal) return [candidate, { uri: candidate.uri }];
  }
  for (const candidate of registry.resources.values()) {
    const matcher = matcherOf(candidate);
    const variables = matcher?.match(uri) ?? (normal === uri ? undefined : matcher?.match(normal));
    if (variables) return [candidate, { ...variables, uri }];
  }
  return undefined;
}

/**
 * Whether the caller of `ctx` may be told that `uri` changed: whether `resources/read` would admit
 * them (the rule of the registration that serves it, or the server's default, and its `allow`
 * check). An update names the URI and says when it changed: a subscription, to it or to a prefix of
 * it, must not tell that to a caller who may not read it. At once when no check waits; an `allow`
 * check that throws says no.
 */
export function mayRead(registry: Registry, ctx: RequestContext, uri: string): boolean | Promise<boolean> {
  const found = resourceAt(registry, uri);
  const declared = found?.[0].config.auth;
  const checks = checksFor(ctx, declared);
  if (!checks) return true;
  const check = (enforce: Awaited<typeof checks>): boolean | Promise<boolean> => {
    if (enforce.checkCallerOf(ctx, declared, "") !== undefined) return false;
    const allowed = enforce.allows(ctx, declared, found?.[1] ?? { uri });
    return allowed instanceof Promise ? allowed.catch(() => false) : allowed;
  };
  try {
    return checks instanceof Promise ? checks.then(check).catch(() => false) : check(checks);
  } catch {
    return false;
  }
}

function notFound(uri: string, ctx: RequestContext): McpError {
  const code = ctx.era === "modern" ? ErrorCode.InvalidParams : ErrorCode.ResourceNotFound;
  // A long URI is cut in the message, and whole in data.uri.
  return new McpError(
    code,
    `Resource not found: ${shown(uri)}. Call resources/list or resources/templates/list to see what can be read.`,
    { uri },
  );
}

/** Turns what `read` returned into `contents` (2025-11-25 "Reading Resources"): never empty for a found resource. */
export function toContents(value: ResourceReturn, uri: string, mimeType: string | undefined): ResourceContents[] {
  const base = mimeType === undefined ? { uri } : { uri, mimeType };
  if (typeof value === "string") return [{ ...base, text: value }];
  if (value instanceof Uint8Array) return [{ ...base, blob: toBase64(value) }];
  const items = Array.isArray(value) ? value : [value];
  if (items.length === 0 || !items.every(isObject)) {
    throw new TypeError(
      `Resource "${uri}" read returned no contents; return a string, bytes, or { uri, text | blob } items.`,
    );
  }
  const wrong = items.findIndex((item) => !isContentsItem(item));
  if (wrong !== -1) {
    throw new TypeError(
      `Resource "${uri}" read returned contents item ${wrong} without a string uri and a string text or blob; return a string, bytes, or { uri, text | blob } items.`,
    );
  }
  let problem: string | undefined;
  const bad = items.findIndex((item) => {
    problem = fieldProblem(item);
    return problem !== undefined;
  });
  if (bad !== -1) {
    throw new TypeError(
      `Resource "${uri}" read returned contents item ${bad}, which ${problem}; return a string, bytes (picomcp encodes them in base64), or { uri, text | blob } items.`,
    );
  }
  return items.map((item) => (item.mimeType === undefined && mimeType !== undefined ? { ...item, mimeType } : item));
}

/**
 * What a field of an item needs (content/check.ts): the official clients refuse the whole result for
 * one bad field, a blob that is not base64 or a mimeType that is not a string. A getter that throws
 * is left to the response's writer, as in isContentsItem.
 */
function fieldProblem(item: ResourceContents): string | undefined {
  try {
    return contentsProblem(item);
  } catch {
    return undefined;
  }
}

/**
 * 2025-11-25 TextResourceContents and BlobResourceContents: a uri, and a text or a base64 blob
 * string. A getter that throws is left to the response's writer, which answers that the contents
 * cannot be sent as JSON, with the message cleaned.
 */
function isContentsItem(item: ResourceContents): boolean {
  try {
    return (
      typeof item.uri === "string" &&
      (("text" in item && typeof item.text === "string") || ("blob" in item && typeof item.blob === "string"))
    );
  } catch {
    return true;
  }
}

function requireUri(params: Params, method: string): string {
  const uri = params?.uri;
  if (typeof uri !== "string") throw new McpError(ErrorCode.InvalidParams, `${method} needs params.uri (a string)`);
  return checkUriLength(uri, "the URI");
}

/**
 * The methods of resources, added to the method table with the first resource registered (see
 * `Registry.install`). A method missing from an era's column answers -32601 in that era (2026-07-28
 * §8 "Removed": subscribe and unsubscribe, whose notifications travel on listen streams instead).
 */
export const methods: Record<string, Method> = {
  "resources/list": { modern: true, legacy: true, capability: "resources", cacheable: true, run: listResources },
  "resources/templates/list": {
    modern: true,
    legacy: true,
    capability: "resources",
    cacheable: true,
    run: listTemplates,
  },
  "resources/read": {
    modern: true,
    legacy: true,
    capability: "resources",
    cacheable: true,
    interactive: true,
    run: readResource,
  },
  "resources/subscribe": {
    modern: false,
    legacy: true,
    capability: "resources",
    run: (registry, params, ctx) => {
      const uri = requireUri(params, "resources/subscribe");
      const session = ctx.session;
      // A subscription that could never be told of an update is refused, not taken and forgotten.
      if (session?.oneRequest) {
        throw new McpError(
          ErrorCode.InvalidRequest,
          "resources/subscribe needs a session, and this server answers 2025 requests without one (http.sessions: false): it has no stream to send updates on. Read the resource again to see whether it changed.",
        );
      }
      // Kept in normal form, as updates are sent (uri-normal.ts): another spelling is the same subscription.
      // Each is kept for the session's life and checked on every update: bounded in number and characters.
      const normal = normalUri(uri);
      if (session) {
        session.subscriptions ??= new SubscriptionSet();
        const subscriptions = session.subscriptions;
        // A URI subscribed again is the same subscription: it never counts twice.
        if (!subscriptions.has(normal)) checkRoom(normal, subscriptions, registry.limits);
        subscriptions.add(normal);
        // Its updates go to the subscriber only for the URIs they may read (the last subscriber's token).
        session.readCheck = { allows: (updated) => mayRead(registry, ctx, updated), hold: holdMessages };
      }
      return {};
    },
  },
  "resources/unsubscribe": {
    modern: false,
    legacy: true,
    capability: "resources",
    run: (_registry, params, ctx) => {
      const uri = normalUri(requireUri(params, "resources/unsubscribe"));
      ctx.session?.subscriptions?.delete(uri);
      return {};
    },
  },
  "completion/complete": completionMethod,
};
