/**
 * The reader of a shared session's stream resumed on an instance that did not write it
 * (http/remote-reader.ts), on a history of its own here: it sends as fast as its reader takes and
 * no faster, as a local stream's reader does (docs/limits.md "SSE streams and slow readers"), so a
 * client that resumes a stream and stops reading makes the server hold nothing beyond what the
 * shared history keeps.
 */
import { expect, it } from "vitest";
import type { EventHistory, KeptEvent } from "../src/state/state.js";
import { RemoteReader } from "../src/transports/http/remote-reader.js";
import { type SseChunk, Streams } from "../src/transports/http/sse.js";

const KEPT: KeptEvent[] = Array.from({ length: 10 }, (_, i) => ({ seq: i + 1, text: `id: 1-${i + 1}\ndata: {}\n\n` }));

/** A history of one stream of ten events, still open. */
const history: EventHistory = {
  append: async () => {},
  end: async () => {},
  read: async (_session, _stream, after) => ({
    events: KEPT.filter((event) => event.seq > after),
    forgotten: 0,
    last: KEPT.length,
    done: false,
  }),
  clear: async () => {},
};

const turns = () => new Promise((resolve) => setTimeout(resolve, 20));

it("writes no more once the sink says it has enough, and goes on from there when it drains", async () => {
  const streams = new Streams(10, 1024);
  const written: SseChunk[] = [];
  let drained: (() => void) | undefined;
  const bounds = { maxEvents: 100, maxSessionBytes: 1_000_000, maxBytes: 10_000_000 };
  const reader = new RemoteReader({
    events: history,
    session: "s",
    stream: 1,
    after: 0,
    prelude: undefined,
    streams,
    bounds,
    onEnd: () => {},
    sessionEnded: async () => undefined,
    // Never asked for: the stream is not a stopped GET stream.
    ownStream: () => {
      throw new Error("no GET stream to carry on as");
    },
  });
  reader.attach({
    // A reader that takes nothing: every write leaves the sink over its mark.
    write: (chunk) => {
      written.push(chunk);
      return false;
    },
    close: () => {},
    onDrain: (wake) => {
      drained = wake;
    },
  });
  await turns();
  // Was: all ten at once, whatever the reader took.
  expect(written).toEqual([KEPT[0]!.text]);
  drained!();
  await turns();
  expect(written).toEqual([KEPT[0]!.text, KEPT[1]!.text]);
  reader.cancel();
  expect(streams.open).toBe(0);
});
