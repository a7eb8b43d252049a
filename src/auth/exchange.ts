import type { Denial } from "./access.js";
import type { Identity } from "./identity.js";
import type { AuthSettings } from "./settings.js";

/** How a transport hands a request's auth to the core. */
export interface ExchangeAuth {
  /** The verified caller, if any. */
  readonly identity?: Identity | undefined;
  /** Where challenges point: the resource's protected resource metadata. */
  readonly metadataUrl?: string | undefined;
  /** Turns the answer to this request into a 401/403 challenge (HTTP only). */
  readonly challenge?: ((denial: Denial) => void) | undefined;
}

/** What the core knows about auth for one request, besides the identity (`ctx.auth`). */
export interface Gate extends ExchangeAuth {
  readonly settings: AuthSettings | undefined;
}
