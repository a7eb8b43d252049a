/** The first revision that carries its protocol version in each request's `_meta` (2026-07-28 §1). */
export const MODERN_VERSIONS: readonly string[] = ["2026-07-28"];

/** Handshake revisions, newest first; `initialize` counter-offers the first (2025-11-25 "Lifecycle"). */
export const LEGACY_VERSIONS: readonly string[] = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];

export const LATEST_LEGACY_VERSION = "2025-11-25";
export const LATEST_VERSION = "2026-07-28";

/** Batches exist only in 2025-03-26 (added there, removed in 2025-06-18). */
export const BATCH_VERSION = "2025-03-26";
