/**
 * The code of a legacy session's streams (their event history and the reader that replays it),
 * imported by sessions.ts with the first stream any session opens or the first message the server
 * sends a session on its own: a session whose requests are all answered with JSON never needs it.
 */
export { delivered } from "./delivery.js";
export { HistoryBudget, SessionHistory } from "./history.js";
export { LogReader } from "./log-reader.js";
