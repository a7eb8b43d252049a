import type { RequestContext } from "../core/context.js";
import { ErrorCode, McpError } from "../core/errors.js";
import { isObject } from "../core/jsonrpc.js";
import type { Registry, RegistryEvent } from "../core/registry.js";
import { boundedReadCheck } from "../core/session.js";
import { META } from "../core/types.js";
import { tooManySubscriptions } from "../limits/subscriptions.js";
import { checkUriLength } from "../resources/uri-length.js";
import { covers } from "../sessions/session.js";
import { type ListenPart, listenExtensions } from "./extensions.js";
import { resourceChecks, watchResources } from "./watchers.js";

/** The lists whose changes a listen request can ask for: flag `<list>ListChanged`, event `<list>/list_changed`. */
const LISTS = ["tools", "prompts", "resources"] as const;

/**
 * `subscriptions/listen` (2026-07-28 §4): acknowledges first with the subset it will honour,
 * then streams only those notifications, each tagged with the listen request's id, until the
 * client cancels (the transport then sends nothing more) or the server closes (a final result).
 */
export async function listen(
  registry: Registry,
  params: Record<string, unknown> | undefined,
  ctx: RequestContext,
): Promise<Record<string, unknown>> {
  const requested = params?.notifications;
  if (!isObject(requested)) {
    throw new McpError(
      ErrorCode.InvalidParams,
      "subscriptions/listen needs params.notifications: the notification types to receive",
    );
  }
  const emit = ctx.emit;
  if (!emit) {
    throw new McpError(
      ErrorCode.InvalidRequest,
      "subscriptions/listen streams notifications: over HTTP, accept text/event-stream",
    );
  }
  const capabilities = registry.capabilities();
  const honoured: Record<string, unknown> = {};
  for (const list of LISTS) {
    const flag = `${list}ListChanged`;
    if (requested[flag] === true && capabilities[list]?.listChanged) honoured[flag] = true;
  }
  const uris = requested.resourceSubscriptions;
  let watched: string[] = [];
  if (Array.isArray(uris) && capabilities.resources?.subscribe) {
    // Each URI named is kept for the stream's life and checked on every update: a bounded number
    // of them, the same one a 2025 session may subscribe to; one named twice counts once.
    watched = [...new Set(uris.filter((uri): uri is string => typeof uri === "string"))];
    for (const uri of watched) checkUriLength(uri, "a URI of notifications.resourceSubscriptions");
    const max = registry.limits.maxSubscriptionsPerSession ?? Infinity;
    if (watched.length > max) {
      throw tooManySubscriptions(`notifications.resourceSubscriptions names ${watched.length} resources`, max);
    }
    honoured.resourceSubscriptions = watched;
    // Before the acknowledgement: from then on, updates are checked (and sent) at once.
    if (watched.length > 0 && !resourceChecks.now) await resourceChecks.load();
  }
  // A layer's own filter fields (the Tasks extension's taskIds), checked before anything is sent.
  const parts: ListenPart[] = [];
  for (const extension of listenExtensions.get(registry) ?? []) {
    const part = await extension.open(requested, ctx);
    if (part) parts.push(part);
  }
  for (const part of parts) Object.assign(honoured, part.honoured);
  const tag = { [META.subscriptionId]: ctx.requestId };
  emit({
    jsonrpc: "2.0",
    method: "notifications/subscriptions/acknowledged",
    params: { notifications: honoured, _meta: tag },
  });

  const wanted = new Set<string>(
    LISTS.filter((list) => honoured[`${list}ListChanged`]).map((list) => `${list}/list_changed`),
  );
  const stops = parts.map((part) =>
    part.start((method, params) => emit({ jsonrpc: "2.0", method, params: { ...params, _meta: tag } })),
  );
  return new Promise((resolve) => {
    let open = true;
    // While an update waits for its check, what comes after waits behind it: the order of changes holds.
    let waiting: Promise<unknown> | undefined;
    const send = (method: string, params: Record<string, unknown>, allowed: boolean | Promise<boolean> = true) => {
      const message = { jsonrpc: "2.0" as const, method, params: { ...params, _meta: tag } };
      if (!waiting && !(allowed instanceof Promise)) return void (allowed && emit(message));
      // A check that fails (the resources run time failing to load) sends nothing, and is handled at
      // once (not when its turn comes): what follows still goes out, and no rejection goes unhandled.
      // One that has not answered within 10 s counts as a no too: the stream cannot stall behind it.
      const checked = allowed instanceof Promise ? boundedReadCheck(allowed) : allowed;
      const mine = (waiting ?? Promise.resolve()).then(() => checked).then((yes) => yes && open && emit(message));
      waiting = mine;
      void mine.then(() => {
        if (waiting === mine) waiting = undefined;
      });
    };
    const updated = (uri: string) => {
      // Only of a URI the caller may read (what resources/read would admit).
      if (watched.some((subscribed) => covers(subscribed, uri))) {
        send(
          "notifications/resources/updated",
          { uri },
          resourceChecks.use(({ mayRead }) => mayRead(registry, ctx, uri)),
        );
      }
    };
    const unsubscribe = registry.subscribe((event: RegistryEvent) => {
      if (event.type === "closed") {
        stop();
        resolve({ _meta: tag });
      } else if (event.type === "resources/updated") {
        updated(event.uri);
      } else if (wanted.has(event.type)) {
        send(`notifications/${event.type}`, {});
      }
    });
    // Told again of each resource it watches when updates may have been missed (watchers.ts).
    const retell = () => {
      for (const uri of watched) updated(uri);
    };
    const unwatch = watched.length > 0 ? watchResources(registry, retell) : undefined;
    const stop = () => {
      open = false;
      unsubscribe();
      unwatch?.();
      for (const end of stops) end();
    };
    // Cancelled (stdio notifications/cancelled, or the HTTP stream closed): the dispatcher sends nothing.
    const cancelled = () => {
      stop();
      resolve({});
    };
    if (ctx.signal.aborted) cancelled();
    else ctx.signal.addEventListener("abort", cancelled);
  });
}
