import type { RequestContext } from "../core/context.js";
import { ErrorCode, McpError } from "../core/errors.js";
import { isObject } from "../core/jsonrpc.js";
import type { Registry, RegistryEvent } from "../core/registry.js";
import { META } from "../core/types.js";
import { checkListened } from "../limits/subscriptions.js";
import { coveredBy } from "../resources/subscriptions.js";
import { checkUriLength } from "../resources/uri-length.js";
import { normalUri } from "../resources/uri-normal.js";
import { HeldMessages } from "../transports/held.js";
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
  let watched: ReadonlySet<string> = new Set();
  if (Array.isArray(uris) && capabilities.resources?.subscribe) {
    // Each URI named is kept for the stream's life and checked on every update: bounded as a 2025
    // session's subscriptions are, in number and in characters; one named twice counts once.
    const named = [...new Set(uris.filter((uri): uri is string => typeof uri === "string"))];
    for (const uri of named) checkUriLength(uri, "a URI of notifications.resourceSubscriptions");
    // Compared in normal form, as updates are sent (resources/uri-normal.ts): two spellings are one URI.
    watched = new Set(named.map(normalUri));
    checkListened([...watched], registry.limits);
    honoured.resourceSubscriptions = named;
    // Before the acknowledgement: from then on, updates are checked (and sent) at once.
    if (watched.size > 0 && !resourceChecks.now) await resourceChecks.load();
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
  return new Promise((resolve) => {
    let open = true;
    // While an update waits for its check, what comes after waits behind it, of every kind (a task's
    // status too): the order of changes holds. A check that fails (the resources run time failing to
    // load), or has not answered within 10 s, counts as a no: what follows still goes out, and no
    // rejection goes unhandled. What it holds goes out at once when the check answers, so it holds half
    // of what its reader may have unread (limits.maxSseBufferBytes): with its SSE framing that still
    // fits, or the stream would be dropped as a reader too far behind.
    const held = new HeldMessages(
      (message) => open && !Array.isArray(message) && emit(message),
      (registry.limits.maxSseBufferBytes ?? Number.POSITIVE_INFINITY) / 2,
    );
    const send = (method: string, params: Record<string, unknown>, allowed: boolean | Promise<boolean> = true) => {
      void held.send({ jsonrpc: "2.0", method, params: { ...params, _meta: tag } }, allowed);
    };
    const stops = parts.map((part) => part.start(send));
    const updated = (uri: string) => {
      // Only of a URI the caller may read (what resources/read would admit).
      if (coveredBy(watched, uri)) {
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
        const ended = delivered().then(() => finish({ _meta: tag }));
        event.ending?.push(ended);
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
    const unwatch = watched.size > 0 ? watchResources(registry, retell) : undefined;
    let listening = true;
    /** Takes no more notifications. */
    const stop = () => {
      if (!listening) return;
      listening = false;
      unsubscribe();
      unwatch?.();
      for (const end of stops) end();
    };
    /**
     * The server closes: what the stream holds goes first, as stdio's shutdown sends it (stdio.ts), an
     * update if its check answers within the grace (limits.shutdownGraceMs); then what still waits is
     * cut: those updates dropped, what follows them sent.
     */
    const delivered = async () => {
      const sent = held.sent();
      if (sent) {
        let timer: ReturnType<typeof setTimeout> | undefined;
        // A delay past the longest a timer takes (2^31 - 1 ms, 24 days; Infinity) would fire at once.
        const grace = Math.min(registry.limits.shutdownGraceMs ?? 0, 2 ** 31 - 1);
        await Promise.race([sent, new Promise((wake) => (timer = setTimeout(wake, grace)))]);
        clearTimeout(timer);
      }
      held.release(true);
    };
    /** Nothing more is sent on the stream: what is still held is dropped. */
    const finish = (result: Record<string, unknown>) => {
      open = false;
      held.release(true);
      resolve(result);
    };
    // Cancelled (stdio notifications/cancelled, or the HTTP stream closed): the dispatcher sends nothing.
    const cancelled = () => {
      stop();
      finish({});
    };
    if (ctx.signal.aborted) cancelled();
    else ctx.signal.addEventListener("abort", cancelled);
  });
}
