import type { RequestId } from "../core/jsonrpc.js";
import type { EventHistory, HistoryBounds, HistoryEvent, KeptEvent, StreamSlice } from "../state/state.js";
import type { RedisLink } from "./client.js";
import type { InstanceLease } from "./liveness.js";
import { RetriedLeaves } from "./retried-leaves.js";
import { sessionKey } from "./sessions.js";

/**
 * A session's history takes an event (APPEND) or a stream (OPEN) only while its record
 * (`s:<session>`, sessions.ts; the script's `key`) exists, checked in the script that writes: a
 * DELETE removes the record, then clears the history, so a write of an instance not yet told of it
 * (a copy evicted before the bus told it, which then clears nothing) never makes a deleted
 * session's history again, whether it lands before the clear (which takes it) or after (refused
 * here). ABANDON needs no check: it writes only to a stream whose writer the history still names,
 * which a clear forgets; END leaves nothing of a stream the history does not know (DROP).
 */
function live(key: string): string {
  return `if redis.call('EXISTS', ${key}) == 0 then return 0 end\n`;
}

/** The arguments of APPEND and ABANDON (see RedisEvents.append). */
const KEEP_ARGS = `
local log, meta, budget, total, readers = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local s, q, text = ARGV[1], tonumber(ARGV[2]), ARGV[3]
local maxEvents, maxSession, maxAll, ttl = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6]), ARGV[7]
local session, prefix = ARGV[8], ARGV[9]
local kind = ARGV[12]
`;

/**
 * Forgets an ended stream that keeps no event (all forgotten, or none written; `c:<stream>`, the
 * events it keeps, absent for one written before it) in meta hash `mk`, as
 * http/history.ts forgets such a stream: its fields go, or a long session's hash would grow by a few
 * per request that streamed, for as long as the session is used. Every resume of it is refused
 * (404) with or without them, since none can be served exactly. A stream ended for its crashed
 * writer (ABANDON, `a:<stream>`) keeps `d:`, its mark as ended: should the writer be back, what it
 * still writes is refused (APPEND), not taken as a new stream. One field per request a crash cut short.
 */
const DROP = `
local function drop(mk, st)
  local ended, last, forgotten, abandoned, kept = unpack(redis.call('HMGET', mk, 'd:' .. st, 'n:' .. st, 'f:' .. st, 'a:' .. st, 'c:' .. st))
  if ended ~= '1' or tonumber(kept or '0') > 0 or tonumber(last or '0') ~= tonumber(forgotten or '0') then return end
  redis.call('HDEL', mk, 'n:' .. st, 'f:' .. st, 'k:' .. st, 'o:' .. st, 'a:' .. st, 'c:' .. st, 'g:' .. st)
  if not abandoned then redis.call('HDEL', mk, 'd:' .. st) end
end
`;

/**
 * Which event the caps forget next of a session's stream `lk` (readers `rk`, FOLLOW): the oldest
 * notification or answer or question its writer's reader sent as it was written (field n, see KEEP);
 * with none, the oldest answer or question that no live reader of its stream is still to send (2025-11-25 "Resumability and Redelivery": a reader may not skip one); with none, nothing.
 * A reader is live while its instance's lease is there: one of a crashed (or closed) instance keeps
 * nothing, and its mark goes as it is read, or every look would read the marks of every reader
 * open at a crash for as long as the session is used (its readers' hash expires with its history).
 * Should the lease only have run out while Redis was away from a live instance, the reader's next
 * FOLLOW marks it again.
 * Read 16 entries at a time: the oldest notification is most often the first.
 */
const VICTIM = `
local function followed(rk)
  local low = {}
  local all = redis.call('HGETALL', rk)
  for i = 2, #all, 2 do
    local st, at, instance = string.match(all[i], '^(%d+) (%d+) (.+)$')
    if st and redis.call('EXISTS', prefix .. 'i:' .. instance) == 1 then
      local cursor = tonumber(at)
      if not low[st] or cursor < low[st] then low[st] = cursor end
    else
      redis.call('HDEL', rk, all[i - 1])
    end
  end
  return low
end
local function victim(lk, mk, rk)
  local low, sent, free = nil, {}, nil
  local start = '-'
  while true do
    local page = redis.call('XRANGE', lk, start, '+', 'COUNT', 16)
    for _, entry in ipairs(page) do
      local f = entry[2]
      if f[8] == '1' then return entry end
      local st, q = f[2], tonumber(f[4])
      low = low or followed(rk)
      if not low[st] or low[st] >= q then
        sent[st] = sent[st] or tonumber(redis.call('HGET', mk, 'g:' .. st) or '0')
        if f[8] == '2' or q <= sent[st] then return entry end
        free = free or entry
      end
    end
    if #page < 16 then return free end
    local ms, seq = string.match(page[#page][1], '^(%d+)-(%d+)$')
    start = ms .. '-' .. string.format('%d', tonumber(seq) + 1)
  end
end
`;

/**
 * Keeps one event, atomically: appended to the session's stream (`h:<session>`, fields s, q, t, and
 * n: 1 for a notification, 2 for an answer or a question its writer's reader sent already), counted
 * in its meta hash (`hm:<session>`: `n:<stream>` the last number, `c:<stream>` the events kept,
 * `f:<stream>` the last forgotten, `k:<stream>` the last forgotten that is not a notification,
 * `d:<stream>` ended, `bytes`) and in the server's budget (`hb`, bytes by session; `hbt`, their
 * total), then the caps of http/history.ts: the session forgets past its event and byte caps, then
 * the session holding the most forgets until the total fits, each time the event VICTIM picks:
 * notifications and what was sent first, and never an answer or a question a live reader is still
 * to send, which may hold a session past its caps (a session holding only such is passed over for
 * the next). An ended stream that keeps no event goes (DROP). A number that does not follow the
 * last one (a write lost while Redis was away) marks what came before it forgotten, and not to be
 * skipped: a resume or a reader across the gap is refused, never served with a hole. `k:` is absent
 * while every forgotten event is one not to skip (a gap; an entry written before `k:` was): the
 * first notification forgotten after one sets it to the last forgotten, and an answer or a question
 * forgotten raises it to its number, never lowers it: a reader past it may skip every number it
 * does not find (RemoteReader), as one instance's reader lets go of notifications (log-reader.ts).
 * Then the readers are woken. Single Redis only: other sessions' keys are named from the prefix
 * (not Redis Cluster safe).
 */
const KEEP = `${DROP}${VICTIM}
local last = tonumber(redis.call('HGET', meta, 'n:' .. s) or '0')
if q ~= last + 1 then
  redis.call('HSET', meta, 'f:' .. s, q - 1)
  redis.call('HDEL', meta, 'k:' .. s)
end
redis.call('HSET', meta, 'n:' .. s, q)
redis.call('HINCRBY', meta, 'c:' .. s, 1)
if kind ~= '' then
  redis.call('XADD', log, '*', 's', s, 'q', q, 't', text, 'n', kind)
else
  redis.call('XADD', log, '*', 's', s, 'q', q, 't', text)
end
redis.call('HINCRBY', meta, 'bytes', #text)
redis.call('ZINCRBY', budget, #text, session)
redis.call('INCRBY', total, #text)
local function forget(id)
  local lk, mk = prefix .. 'h:' .. id, prefix .. 'hm:' .. id
  local picked = victim(lk, mk, prefix .. 'hr:' .. id)
  if not picked then return false end
  local f = picked[2]
  local st, at = f[2], tonumber(f[4])
  redis.call('XDEL', lk, picked[1])
  redis.call('HINCRBY', mk, 'c:' .. st, -1)
  local before = tonumber(redis.call('HGET', mk, 'f:' .. st) or '0')
  if f[8] == '1' then
    redis.call('HSETNX', mk, 'k:' .. st, before)
  else
    redis.call('HSET', mk, 'k:' .. st, math.max(at, tonumber(redis.call('HGET', mk, 'k:' .. st) or before)))
  end
  -- Never back: an event kept before a gap, or past notifications, forgotten after them, leaves them forgotten.
  if at > before then redis.call('HSET', mk, 'f:' .. st, at) end
  redis.call('HINCRBY', mk, 'bytes', -#f[6])
  redis.call('ZINCRBY', budget, -#f[6], id)
  redis.call('DECRBY', total, #f[6])
  drop(mk, st)
  return true
end
while redis.call('XLEN', log) > maxEvents or tonumber(redis.call('HGET', meta, 'bytes')) > maxSession do
  if not forget(session) then break end
end
local rank = 0
for _ = 1, 10000 do
  if tonumber(redis.call('GET', total) or '0') <= maxAll then break end
  local top = redis.call('ZREVRANGE', budget, rank, rank)
  if #top == 0 then break end
  if not forget(top[1]) then
    if redis.call('XLEN', prefix .. 'h:' .. top[1]) == 0 then
      redis.call('DECRBY', total, tonumber(redis.call('ZSCORE', budget, top[1]) or '0'))
      redis.call('ZREM', budget, top[1])
    else
      rank = rank + 1
    end
  end
end
redis.call('PEXPIRE', log, ttl)
redis.call('PEXPIRE', meta, ttl)
redis.call('PEXPIRE', readers, ttl)
redis.call('PUBLISH', ARGV[10], ARGV[11])
return 1
`;

/**
 * An ended stream takes no more events: a stream whose instance was taken for crashed (ABANDON) while
 * Redis was away from it keeps the answer another instance wrote for it, not one after it. Nor does
 * a session whose record (KEYS[5]) is gone (`live`).
 */
const APPEND = `${KEEP_ARGS}${live("KEYS[6]")}
if redis.call('HGET', meta, 'd:' .. s) == '1' then return 0 end
${KEEP}`;

/**
 * Ends a stream whose writing instance's lease ran out (`w:<stream>`, the instance; ARGV[13], the
 * prefix of leases, liveness.ts) with its last event, the request's error response numbered `q`:
 * only if it is still so, so that of several readers only one writes it, and none when the
 * instance is back. Its writer's fields go, as END has them go; `a:<stream>` says it was ended
 * for its writer, for DROP.
 */
const ABANDON = `${KEEP_ARGS}
local writer = redis.call('HGET', meta, 'w:' .. s)
if not writer or redis.call('HGET', meta, 'd:' .. s) == '1' then return 0 end
if redis.call('EXISTS', ARGV[13] .. writer) == 1 then return 0 end
if tonumber(redis.call('HGET', meta, 'n:' .. s) or '0') ~= q - 1 then return 0 end
redis.call('HSET', meta, 'd:' .. s, '1', 'a:' .. s, '1')
redis.call('HDEL', meta, 'w:' .. s, 'r:' .. s)
${KEEP}`;

/**
 * What a session keeps of one stream after an event, read at one instant (with `k:`, the last
 * forgotten event not to skip, absent while that is the last forgotten); the id of its request
 * while it is not ended; whether its writing instance's lease (ARGV[3] .. `w:<stream>`) ran out
 * before it ended, and then that request's id again as abandoned (a GET stream has none).
 */
const READ = `
local s = ARGV[1]
local meta = redis.call('HMGET', KEYS[2], 'f:' .. s, 'n:' .. s, 'd:' .. s, 'o:' .. s, 'w:' .. s, 'r:' .. s, 'k:' .. s)
local stopped = meta[5] and meta[3] ~= '1' and redis.call('EXISTS', ARGV[3] .. meta[5]) == 0
local abandoned = ''
if stopped and meta[6] then abandoned = meta[6] end
local kept = {}
for _, entry in ipairs(redis.call('XRANGE', KEYS[1], '-', '+')) do
  local f = entry[2]
  if f[2] == s and tonumber(f[4]) > tonumber(ARGV[2]) then
    kept[#kept + 1] = f[4]
    kept[#kept + 1] = f[6]
  end
end
return { meta[1] or '0', meta[2] or '0', meta[3] or '0', kept, meta[4] or '0', abandoned, meta[6] or '', stopped and '1' or '0', meta[7] or '' }
`;

/**
 * Records that stream `st`'s events up to `upTo` were sent by a reader (`g:<stream>` in meta hash
 * `mk`, raised, never lowered, never past the last written), for VICTIM; nothing for a stream the
 * history no longer knows.
 */
const RAISE_SENT = `
local function raiseSent(mk, st, upTo)
  local last = redis.call('HGET', mk, 'n:' .. st)
  if not last then return end
  -- No further than what was written: a forged Last-Event-ID past it marks nothing still to come as sent.
  upTo = math.min(upTo, tonumber(last))
  if upTo > tonumber(redis.call('HGET', mk, 'g:' .. st) or '0') then redis.call('HSET', mk, 'g:' .. st, upTo) end
end
`;

/** RAISE_SENT for stream ARGV[1], up to ARGV[2], of meta hash KEYS[1]. */
const SENT = `${RAISE_SENT}
raiseSent(KEYS[1], ARGV[1], tonumber(ARGV[2]))
return 1
`;

/**
 * Sets this instance's lease (KEYS[4], liveness.ts; ARGV[7] its length) and marks reader ARGV[4]
 * (this instance's id, ARGV[5], and the reader's) as following stream ARGV[1] from number ARGV[2]
 * in the session's readers (KEYS[3], `hr:<session>`, expiring with the history, ARGV[6]), where
 * there is a history to follow; what it sent, up to ARGV[2], the caps may forget (RAISE_SENT); then
 * READs. The caps keep what it is still to send (VICTIM) while the lease is there; `leave` takes
 * the mark away, or the caps once the lease ran out.
 */
const FOLLOW = `${RAISE_SENT}
redis.call('SET', KEYS[4], '1', 'PX', ARGV[7])
if redis.call('EXISTS', KEYS[2]) == 1 then
  redis.call('HSET', KEYS[3], ARGV[4], ARGV[1] .. ' ' .. ARGV[2] .. ' ' .. ARGV[5])
  redis.call('PEXPIRE', KEYS[3], ARGV[6])
end
raiseSent(KEYS[2], ARGV[1], tonumber(ARGV[2]))
${READ}`;

/**
 * Sets this instance's lease (KEYS[2], liveness.ts), then, while the session's record (KEYS[3]) is
 * there, marks a stream opened (its meta hash expires with the history) and records its writer
 * (`w:<stream>`, this instance), so that the lease is there before any reader looks. A request's
 * stream also records its request's id as JSON (`r:<stream>`); the session's GET stream, which
 * answers no request, does not.
 */
const OPEN = `
redis.call('SET', KEYS[2], '1', 'PX', ARGV[5])
${live("KEYS[3]")}
redis.call('HSET', KEYS[1], 'o:' .. ARGV[1], '1', 'w:' .. ARGV[1], ARGV[3])
if ARGV[4] ~= '' then redis.call('HSET', KEYS[1], 'r:' .. ARGV[1], ARGV[4]) end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
`;

/**
 * Ends a stream: its readers send what is left, then close. Its writer is no longer needed: the hash
 * keeps no field per stream for it; nor for the stream itself once it keeps no event (DROP), so an
 * end written after a DELETE's clear leaves nothing (the stream is unknown: no event, none forgotten).
 */
const END = `${DROP}
redis.call('HSET', KEYS[1], 'd:' .. ARGV[1], '1')
redis.call('HDEL', KEYS[1], 'w:' .. ARGV[1], 'r:' .. ARGV[1])
drop(KEYS[1], ARGV[1])
redis.call('PUBLISH', ARGV[2], ARGV[3])
return 1
`;

/** Restarts the expiry of a session's history, where there is one (PEXPIRE makes no key). */
const PROLONG = `
redis.call('PEXPIRE', KEYS[1], ARGV[1])
redis.call('PEXPIRE', KEYS[2], ARGV[1])
redis.call('PEXPIRE', KEYS[3], ARGV[1])
return 1
`;

/** Forgets a session's history, its readers (FOLLOW), and takes its bytes out of the server's budget. */
const CLEAR = `
local bytes = tonumber(redis.call('HGET', KEYS[2], 'bytes') or '0')
redis.call('DEL', KEYS[1], KEYS[2], KEYS[5])
redis.call('ZREM', KEYS[3], ARGV[1])
redis.call('DECRBY', KEYS[4], bytes)
return 1
`;

/**
 * The resumable event history on Redis: one stream (capped by the script) per session. Its writes
 * may run late (a command timed out, and Redis got to it after, maybe after this instance closed),
 * harmlessly, unlike the bus's (RedisLink.inTime): a link's commands run in the order sent, so a late
 * one still runs before what the instance sent after it; APPEND keeps an event nobody was told was
 * lost (it only leaves a gap otherwise), and none once its stream ended for a writer taken for
 * crashed, or its session is gone; its wake-up has readers read again, no more. OPEN and FOLLOW hold
 * the instance's lease one lease more from then, as its renewal would; ABANDON checks at run time
 * that the stream is still abandoned; SENT only raises; PROLONG makes no key; END, CLEAR and a
 * reader's leave forget what nothing writes again.
 */
export class RedisEvents implements EventHistory {
  readonly #link: RedisLink;
  readonly #prefix: string;
  readonly #wake: (session: string, stream: number) => [channel: string, payload: string];
  readonly #ttlMs: number;
  readonly #instance: string;
  readonly #lease: InstanceLease;
  readonly #leaves: RetriedLeaves;

  constructor(
    link: RedisLink,
    options: {
      prefix: string;
      ttlMs: number;
      wake: (session: string, stream: number) => [string, string];
      /** This instance's id (the bus's), recorded as the writer of the streams it opens. */
      instance: string;
      lease: InstanceLease;
    },
  ) {
    this.#link = link;
    this.#prefix = options.prefix;
    this.#wake = options.wake;
    this.#ttlMs = options.ttlMs;
    this.#instance = options.instance;
    this.#lease = options.lease;
    // As often as the lease is renewed: that renewal is what keeps a mark left behind live.
    this.#leaves = new RetriedLeaves(link, options.lease.ms / 3);
  }

  async append(session: string, event: HistoryEvent, bounds: HistoryBounds) {
    const keys = [...this.#keys(session), this.#record(session)];
    return Number(await this.#link.script(APPEND, keys, this.#keepArgs(session, event, bounds))) === 1;
  }

  async abandon(session: string, event: HistoryEvent, bounds: HistoryBounds) {
    const args = [...this.#keepArgs(session, event, bounds), `${this.#prefix}i:`];
    return Number(await this.#link.script(ABANDON, this.#keys(session), args)) === 1;
  }

  /** The ARGV of KEEP_ARGS, and the bus message that wakes the stream's readers. */
  #keepArgs(session: string, event: HistoryEvent, bounds: HistoryBounds): string[] {
    const [channel, payload] = this.#wake(session, event.stream);
    return [
      String(event.stream),
      String(event.seq),
      event.text,
      String(bounds.maxEvents),
      String(bounds.maxSessionBytes),
      String(bounds.maxBytes),
      String(this.#ttlMs),
      session,
      this.#prefix,
      channel,
      payload,
      event.notice ? "1" : event.sent ? "2" : "",
    ];
  }

  async end(session: string, stream: number): Promise<void> {
    const [channel, payload] = this.#wake(session, stream);
    await this.#link.script(END, [this.#keys(session)[1]], [String(stream), channel, payload]);
  }

  async open(session: string, stream: number, request?: RequestId): Promise<void> {
    const keys = [this.#keys(session)[1], this.#lease.key, this.#record(session)];
    const id = request === undefined ? "" : JSON.stringify(request);
    await this.#link.script(OPEN, keys, [
      String(stream),
      String(this.#ttlMs),
      this.#instance,
      id,
      String(this.#lease.ms),
    ]);
    this.#lease.start();
  }

  read(session: string, stream: number, after: number): Promise<StreamSlice> {
    return this.#slice(READ, this.#keys(session), [String(stream), String(after), `${this.#prefix}i:`]);
  }

  async follow(session: string, reader: string, at: { stream: number; after: number }): Promise<StreamSlice> {
    const [log, meta, , , readers] = this.#keys(session);
    const args = [String(at.stream), String(at.after), `${this.#prefix}i:`, this.#reader(reader)];
    args.push(this.#instance, String(this.#ttlMs), String(this.#lease.ms));
    const slice = await this.#slice(FOLLOW, [log, meta, readers, this.#lease.key], args);
    this.#lease.start();
    return slice;
  }

  async sent(session: string, at: { stream: number; upTo: number }): Promise<void> {
    await this.#link.script(SENT, [this.#keys(session)[1]], [String(at.stream), String(at.upTo)]);
  }

  /** Tried again until Redis takes it, should it fail now (RetriedLeaves). */
  leave(session: string, reader: string): Promise<void> {
    return this.#leaves.leave(this.#keys(session)[4], this.#reader(reader));
  }

  /** The state closed: failed leaves are tried no more (the lease runs out, and their marks count no more). */
  close(): void {
    this.#leaves.close();
  }

  /** A reader's field among its session's readers: this instance's id and the reader's, unique among instances. */
  #reader(reader: string): string {
    return `${this.#instance} ${reader}`;
  }

  /** The StreamSlice of READ's reply (FOLLOW's too). */
  async #slice(script: string, keys: string[], args: string[]): Promise<StreamSlice> {
    // The reply of READ (above): forgotten, last, done, the kept events' seq and text in turn, opened,
    // the abandoned request's id as JSON (or ""), the request's id as JSON (or ""), "1" if the writer
    // stopped, the last forgotten event not to skip (or "": the last forgotten).
    const reply = (await this.#link.script(script, keys, args)) as [
      string,
      string,
      string,
      string[],
      string,
      string,
      string,
      string,
      string,
    ];
    const events: KeptEvent[] = [];
    const kept = reply[3];
    for (let i = 0; i + 1 < kept.length; i += 2) events.push({ seq: Number(kept[i]), text: kept[i + 1]! });
    return {
      forgotten: Number(reply[0]),
      last: Number(reply[1]),
      done: reply[2] === "1",
      events,
      opened: reply[4] === "1",
      abandoned: reply[5] === "" ? undefined : requestId(reply[5]),
      request: reply[6] === "" ? undefined : requestId(reply[6]),
      stopped: reply[7] === "1" || undefined,
      unskippable: reply[8] === "" ? undefined : Number(reply[8]),
    };
  }

  async prolong(session: string): Promise<void> {
    const [log, meta, , , readers] = this.#keys(session);
    await this.#link.script(PROLONG, [log, meta, readers], [String(this.#ttlMs)]);
  }

  async clear(session: string): Promise<void> {
    await this.#link.script(CLEAR, this.#keys(session), [session]);
  }

  /** The session's record (sessions.ts): while it is there, its history may be written (`live`). */
  #record(session: string): string {
    return sessionKey(this.#prefix, session);
  }

  /** The session's history, its meta hash, the server's budget and its total, the session's readers (FOLLOW). */
  #keys(session: string): [string, string, string, string, string] {
    const prefix = this.#prefix;
    return [`${prefix}h:${session}`, `${prefix}hm:${session}`, `${prefix}hb`, `${prefix}hbt`, `${prefix}hr:${session}`];
  }
}

/** A request id as OPEN recorded it (JSON); undefined for anything else. */
function requestId(json: string): RequestId | undefined {
  const id: unknown = JSON.parse(json);
  return typeof id === "string" || typeof id === "number" ? id : undefined;
}
