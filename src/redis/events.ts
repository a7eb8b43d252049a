import type { EventHistory, HistoryBounds, KeptEvent, StreamSlice } from "../state/state.js";
import type { RedisLink } from "./client.js";

/**
 * Keeps one event, atomically: appended to the session's stream (`h:<session>`, fields s, q, t),
 * counted in its meta hash (`hm:<session>`: `n:<stream>` the last number, `f:<stream>` the last
 * forgotten, `d:<stream>` ended, `bytes`) and in the server's budget (`hb`, bytes by session; `hbt`,
 * their total), then the caps of http/history.ts: the session forgets its oldest events past its
 * event and byte caps, then the session holding the most forgets until the total fits. A number
 * that does not follow the last one (a write lost while Redis was away) marks what came before it
 * forgotten: a resume across the gap is refused, never served with a hole. Then the readers are woken.
 * Single Redis only: other sessions' keys are named from the prefix (not Redis Cluster safe).
 */
const APPEND = `
local log, meta, budget, total = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local s, q, text = ARGV[1], tonumber(ARGV[2]), ARGV[3]
local maxEvents, maxSession, maxAll, ttl = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6]), ARGV[7]
local session, prefix = ARGV[8], ARGV[9]
local last = tonumber(redis.call('HGET', meta, 'n:' .. s) or '0')
if q ~= last + 1 then redis.call('HSET', meta, 'f:' .. s, q - 1) end
redis.call('HSET', meta, 'n:' .. s, q)
redis.call('XADD', log, '*', 's', s, 'q', q, 't', text)
redis.call('HINCRBY', meta, 'bytes', #text)
redis.call('ZINCRBY', budget, #text, session)
redis.call('INCRBY', total, #text)
local function forget(lk, mk, owner)
  local oldest = redis.call('XRANGE', lk, '-', '+', 'COUNT', 1)
  if #oldest == 0 then return false end
  local f = oldest[1][2]
  redis.call('XDEL', lk, oldest[1][1])
  redis.call('HSET', mk, 'f:' .. f[2], f[4])
  redis.call('HINCRBY', mk, 'bytes', -#f[6])
  redis.call('ZINCRBY', budget, -#f[6], owner)
  redis.call('DECRBY', total, #f[6])
  return true
end
while redis.call('XLEN', log) > maxEvents or tonumber(redis.call('HGET', meta, 'bytes')) > maxSession do
  if not forget(log, meta, session) then break end
end
for _ = 1, 10000 do
  if tonumber(redis.call('GET', total) or '0') <= maxAll then break end
  local top = redis.call('ZREVRANGE', budget, 0, 0)
  if #top == 0 then break end
  if not forget(prefix .. 'h:' .. top[1], prefix .. 'hm:' .. top[1], top[1]) then
    redis.call('DECRBY', total, tonumber(redis.call('ZSCORE', budget, top[1]) or '0'))
    redis.call('ZREM', budget, top[1])
  end
end
redis.call('PEXPIRE', log, ttl)
redis.call('PEXPIRE', meta, ttl)
redis.call('PUBLISH', ARGV[10], ARGV[11])
return 1
`;

/** What a session keeps of one stream after an event, read at one instant. */
const READ = `
local meta = redis.call('HMGET', KEYS[2], 'f:' .. ARGV[1], 'n:' .. ARGV[1], 'd:' .. ARGV[1], 'o:' .. ARGV[1])
local kept = {}
for _, entry in ipairs(redis.call('XRANGE', KEYS[1], '-', '+')) do
  local f = entry[2]
  if f[2] == ARGV[1] and tonumber(f[4]) > tonumber(ARGV[2]) then
    kept[#kept + 1] = f[4]
    kept[#kept + 1] = f[6]
  end
end
return { meta[1] or '0', meta[2] or '0', meta[3] or '0', kept, meta[4] or '0' }
`;

/** Marks a stream opened (its meta hash expires with the history). */
const OPEN = `
redis.call('HSET', KEYS[1], 'o:' .. ARGV[1], '1')
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
`;

/** Ends a stream: its readers send what is left, then close. */
const END = `
redis.call('HSET', KEYS[1], 'd:' .. ARGV[1], '1')
redis.call('PUBLISH', ARGV[2], ARGV[3])
return 1
`;

/** Forgets a session's history, and takes its bytes out of the server's budget. */
const CLEAR = `
local bytes = tonumber(redis.call('HGET', KEYS[2], 'bytes') or '0')
redis.call('DEL', KEYS[1], KEYS[2])
redis.call('ZREM', KEYS[3], ARGV[1])
redis.call('DECRBY', KEYS[4], bytes)
return 1
`;

/** The resumable event history on Redis: one stream (capped by the script) per session. */
export class RedisEvents implements EventHistory {
  readonly #link: RedisLink;
  readonly #prefix: string;
  readonly #wake: (session: string, stream: number) => [channel: string, payload: string];
  readonly #ttlMs: number;

  constructor(
    link: RedisLink,
    options: { prefix: string; ttlMs: number; wake: (session: string, stream: number) => [string, string] },
  ) {
    this.#link = link;
    this.#prefix = options.prefix;
    this.#wake = options.wake;
    this.#ttlMs = options.ttlMs;
  }

  async append(session: string, event: { stream: number; seq: number; text: string }, bounds: HistoryBounds) {
    const [channel, payload] = this.#wake(session, event.stream);
    await this.#link.script(APPEND, this.#keys(session), [
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
    ]);
  }

  async end(session: string, stream: number): Promise<void> {
    const [channel, payload] = this.#wake(session, stream);
    await this.#link.script(END, [this.#keys(session)[1]], [String(stream), channel, payload]);
  }

  async open(session: string, stream: number): Promise<void> {
    await this.#link.script(OPEN, [this.#keys(session)[1]], [String(stream), String(this.#ttlMs)]);
  }

  async read(session: string, stream: number, after: number): Promise<StreamSlice> {
    // The reply of READ (above): forgotten, last, done, the kept events' seq and text in turn, opened.
    const reply = (await this.#link.script(READ, this.#keys(session), [String(stream), String(after)])) as [
      string,
      string,
      string,
      string[],
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
    };
  }

  async clear(session: string): Promise<void> {
    await this.#link.script(CLEAR, this.#keys(session), [session]);
  }

  #keys(session: string): [string, string, string, string] {
    const prefix = this.#prefix;
    return [`${prefix}h:${session}`, `${prefix}hm:${session}`, `${prefix}hb`, `${prefix}hbt`];
  }
}
