import { isObject, type JsonRpcMessage, serialize } from "../core/jsonrpc.js";

/** Coalesces the lines of one turn of the event loop into one write: a write per message is a measurable cost. */
const later: (callback: () => void) => void =
  (globalThis as { setImmediate?: (callback: () => void) => void }).setImmediate ??
  ((callback) => setTimeout(callback, 0));

/** The most text one write joins from several lines (a longer line is written on its own). */
const BATCH = 64 * 1024;

/**
 * How long after its request's progress is written a response is (see `send`). A turn of the event loop
 * was not enough: the official clients still read the progress with the response in most first calls of
 * a connection, and in some later ones. On a loaded 2-CPU machine, 1 ms lost the reports of 5 calls in
 * 300, 10 ms of 2 in 1,200, 20 ms of none in 1,000.
 */
const AFTER_PROGRESS_MS = 20;

/** The notifications dropped while the client does not read (see `send`). */
const DROPPABLE = /^notifications\/(?:message|progress)$/;

/** Dropped too, but only past a bound of their own (see `send`). */
const UPDATED = "notifications/resources/updated";

/** The notifications that say how something now is: a newer one about the same thing supersedes one still waiting (see `send`). */
const SUPERSEDED = /^notifications\/(?:\w+\/list_changed|resources\/updated|tasks(?:\/status)?)$/;

export interface LineOutput {
  /** Queues a message, one line of JSON; `request`: the request a response answers, as read (see `lineOutput`). */
  send(message: JsonRpcMessage | JsonRpcMessage[], request?: unknown): void;
  /** While the output takes no more writes (the client is not reading): resolves once it takes them again. */
  blocked(): Promise<void> | undefined;
  /** Writes everything queued, waiting for the output to drain as often as it must. */
  finish(): Promise<void>;
}

/**
 * The lines a stdio server writes, queued one string per message and written in batches of at most
 * `BATCH` characters: joining a turn's answers into one string would outgrow V8's longest string
 * (about 512 MiB) and lose every answer past it. Writes respect backpressure: once `write` answers
 * false, nothing more is written until `drained` resolves, and `blocked` tells the reader to stop
 * reading requests meanwhile, so a client that stops reading bounds what the server holds: log and
 * progress notifications past `maxQueued` are dropped, and a change notification or task status
 * supersedes one about the same thing still waiting. A response goes AFTER_PROGRESS_MS after its
 * request's last progress is written, in a later write (see `send`).
 */
export function lineOutput(
  write: (chunk: string) => unknown,
  drained: (() => Promise<void>) | undefined,
  maxQueued: number,
): LineOutput {
  /**
   * Lines not yet written, with their newlines, in order, and their length in all. A line another
   * superseded (see `send`) stays in its place as "", which writes nothing: the queue of a plain
   * array costs a response nothing more than a push (a Map per line cost every call CPU and memory).
   */
  const lines: string[] = [];
  let queued = 0;
  /** How many lines have left the queue (written): a line's place in `lines` is its number less this. */
  let written = 0;
  /** The number of the line of each key still waiting (made by the first line with a key). */
  let keyed: Map<string, number> | undefined;
  let scheduled = false;
  /** Resolves once the output takes writes again; set while it does not. */
  let ready: Promise<void> | undefined;
  /** The resource updates waiting: each line's length by its number (made by the first), and their length in all. */
  let updating: Map<number, number> | undefined;
  let updates = 0;
  /**
   * The responses held behind the progress still to be written (see `send`); then, for AFTER_PROGRESS_MS
   * after it is, behind that write. `recent` has each token whose progress is in one, by the latest.
   */
  let pending: (JsonRpcMessage | JsonRpcMessage[])[] | undefined;
  let recent: Map<unknown, (JsonRpcMessage | JsonRpcMessage[])[]> | undefined;
  /** How many writes of progress are less than AFTER_PROGRESS_MS old. */
  let holds = 0;

  const flush = (): void => {
    scheduled = false;
    while (ready === undefined && lines.length > 0) {
      // As many whole lines as fit in a batch, and at least one.
      let count = 1;
      let length = lines[0]!.length;
      while (count < lines.length && length + lines[count]!.length <= BATCH) length += lines[count++]!.length;
      queued -= length;
      written += count;
      const chunk = lines.splice(0, count).join("");
      if (chunk !== "" && write(chunk) === false && drained) ready = drained().then(unblock, unblock);
    }
    // Their progress written, the responses held behind it, and those of the same requests that come
    // meanwhile, go AFTER_PROGRESS_MS later (see `send`).
    if (pending && lines.length === 0) {
      const held = pending;
      pending = undefined;
      holds++;
      setTimeout(() => {
        holds--;
        // A token whose progress went again since holds its responses until later.
        if (recent) for (const [token, hold] of recent) if (hold === held) recent.delete(token);
        if (recent?.size === 0) recent = undefined;
        for (const message of held) output.send(message);
        flush();
      }, AFTER_PROGRESS_MS);
    }
    // The keys of lines written are no longer waiting; nor are the updates (numbered in order).
    if (keyed?.size) for (const [key, number] of keyed) if (number < written) keyed.delete(key);
    if (updating?.size) {
      for (const [number, length] of updating) {
        if (number >= written) break;
        updating.delete(number);
        updates -= length;
      }
    }
  };
  const unblock = (): void => {
    ready = undefined;
    flush();
  };

  const output: LineOutput = {
    send(message, request) {
      // A request or a notification (a response or a batch has no method).
      const sent = "method" in message ? message : undefined;
      const method = sent?.method;
      // Log and progress notifications are best-effort (servers SHOULD rate-limit them: 2025-11-25 "Logging",
      // "Progress"): while the client does not read and more than limits.maxSseBufferBytes wait for it, they
      // are dropped, not queued, so a handler that floods them cannot grow the server without bound. So are
      // updates of resources: those of one URI merge (below), but a client subscribed to a parent URI is told
      // of every resource under it, without bound (a 2025 session's GET stream drops them so too). Those only
      // past limits.maxSseBufferBytes of updates: what else waits (a long answer, logs) is bounded already,
      // and an update dropped is never sent again, so its client would not read that resource again.
      const update = method === UPDATED;
      if (ready && method && (update ? updates : DROPPABLE.test(method) ? queued : 0) > maxQueued) return;
      // The official TypeScript clients handle a response as they read it, and a notification a microtask
      // later: a response read with its request's progress has dropped the handler that progress needed,
      // which is lost, an error to the client (modelcontextprotocol/typescript-sdk#2580). So a response
      // goes AFTER_PROGRESS_MS after its request's last progress is written: one whose progress is still
      // to be written waits for it to be, one whose progress went less than that ago (its tool answered
      // after a short wait) waits the rest, so a client a little busy reads the progress first. Nothing
      // else waits for it.
      if (method === "notifications/progress") {
        pending ??= [];
        recent ??= new Map();
        recent.set(sent?.params?.progressToken, pending);
      } else {
        const held = recent?.get(tokenOf(request));
        if (held) {
          held.push(message);
          return;
        }
      }
      // JSON never holds a raw newline, so a message is always exactly one line.
      const line = serialize(message);
      if (line === undefined) return;
      const text = `${line}\n`;
      // A list_changed, resources/updated or task status about the same thing as one still waiting (the same
      // list, URI or task, for the same listen request) supersedes it: the client lists or reads after the
      // change, so it sees this one too (2025-11-25 "Tools", "Resources"; 2026-07-28 §4), and a task's newer
      // status is what it now is (2025-11-25 "Tasks"; SEP-2663). The older is dropped and the newer goes
      // last, so the order holds, and a registry or a task that churns cannot grow the server while the
      // client does not read. Responses wait too, bounded by the reading, which stops meanwhile.
      if (method && SUPERSEDED.test(method)) {
        // What it is about: a change notification is its own line (the same list or URI, the same listen); a
        // task status, its task and listen, whatever the status says.
        const params = sent.params;
        const key = params?.taskId === undefined ? line : `${method} ${JSON.stringify([params.taskId, params._meta])}`;
        keyed ??= new Map();
        const place = (keyed.get(key) ?? -1) - written;
        if (place >= 0) {
          const superseded = lines[place]!.length;
          queued -= superseded;
          if (update && updating?.delete(place + written)) updates -= superseded;
          lines[place] = "";
        }
        keyed.set(key, written + lines.length);
      }
      if (update) {
        updating ??= new Map();
        updating.set(written + lines.length, text.length);
        updates += text.length;
      }
      lines.push(text);
      queued += text.length;
      // A full batch need not wait for the end of the turn, and the reader learns at once if it blocked.
      if (queued >= BATCH) flush();
      else if (!scheduled) {
        scheduled = true;
        later(flush);
      }
    },
    blocked: () => ready,
    async finish() {
      flush();
      // Responses held behind their request's progress are written after it too (a hold with none ends soon).
      while (ready || holds > 0) await (ready ?? new Promise((resolve) => setTimeout(resolve, AFTER_PROGRESS_MS)));
    },
  };
  return output;
}

/** The progress token of `request`, a request as read, if it has one. */
function tokenOf(request: unknown): unknown {
  const params = isObject(request) ? request.params : undefined;
  const meta = isObject(params) ? params._meta : undefined;
  return isObject(meta) ? meta.progressToken : undefined;
}
