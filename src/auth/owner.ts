/**
 * Whom what outlives a request belongs to: the owner key of a verified caller, worked out as the auth
 * layer makes its identity (to-identity.ts) and read by the layers that keep state per caller
 * (asking/rounds.ts's requestStates, tasks/owners.ts, the HTTP endpoint's sessions through gate.ts).
 */
import type { Identity } from "../core/caller.js";

/** Each identity's owner key, remembered as picomcp makes the identity (`keyOwner`, from auth/to-identity.ts). */
const ownerKeys = new WeakMap<object, string>();

/**
 * Whom sessions, tasks and requestStates of a verified caller belong to: the SHA-256, in hex, of its
 * issuer and subject as a pair. Shared state (Redis) stores it, in records and in key names, and a
 * requestState carries it to the client: a digest, since a verifier may answer a secret as the
 * subject (an API key), which must not end up there. Exact all the same: the pair is spelled so that
 * no other pair spells the same, the JSON of the two strings ("tenant a" with "b" is not "tenant"
 * with "a b"), and SHA-256 keeps them apart.
 */
export function ownerKey(identity: Identity): string {
  const key = ownerKeys.get(identity);
  // Every identity comes from toIdentity, which keys it: one that does not could only be mistaken for another.
  if (key === undefined) throw new Error("This identity was not made by picomcp, so it has no owner key");
  return key;
}

/** Works out `identity`'s owner key (see `ownerKey`) and remembers it: Web Crypto's digest is asynchronous, `ownerKey` is not. */
export async function keyOwner(identity: Identity): Promise<Identity> {
  const pair = new TextEncoder().encode(JSON.stringify([identity.issuer ?? "", identity.subject]));
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", pair));
  ownerKeys.set(identity, Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join(""));
  return identity;
}
