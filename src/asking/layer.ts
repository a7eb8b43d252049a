/**
 * The asking layer (core/context.ts's AskingLayer, with what carried.ts adds to it), loaded as one piece with the first question a server
 * asks (wired in by server.ts): the questions themselves, the rounds of a handler that asked
 * (2026-07-28 `input_required` with sealed state, 2025 requests to the client) and a legacy
 * connection's requests awaiting answers; and `server.call`, which runs under the round runner to
 * answer questions with `onInput`. The tasks layer reads a retry's answers with `retryAnswers`, and answers a
 * 2025 task's failed question with `AskFailure`.
 */

export { startLocally } from "../local.js";
export { AskFailure, confirm, elicit, elicitUrl, roots, sample } from "./ask.js";
export { completeElicitation, Questions } from "./questions.js";
export { retryAnswers, runRounds as rounds } from "./rounds.js";
