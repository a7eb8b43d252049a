/**
 * A resource update concerns a subscription to its URI or to a parent of it (2025-11-25
 * "Subscriptions", 2026-07-28 §4): `coveredBy` looks the URI's prefixes up in a set of subscriptions,
 * which must answer as comparing the URI with each subscription does (the definition, written here
 * as the spec's words), for any URIs, "/" runs and trailing "/" included, and on both of its paths
 * (few "/" looked up; more "/" than subscriptions, each compared).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { coveredBy } from "../src/resources/subscriptions.js";

/** The definition: the URI subscribed, or a resource under it ("a" and "a/" both cover "a/b"). */
function underOrSame(subscribed: string, uri: string): boolean {
  if (uri === subscribed) return true;
  const parent = subscribed.endsWith("/") ? subscribed : `${subscribed}/`;
  return uri.startsWith(parent);
}

// URIs of few letters and many "/", so that prefixes, doubled "/" and near misses ("ab" against "a") are common.
const uri = fc.string({ unit: fc.constantFrom("a", "b", "/", ":"), maxLength: 12 });

describe("coveredBy", () => {
  it("answers as comparing the URI with each subscription does", () => {
    fc.assert(
      fc.property(fc.uniqueArray(uri, { maxLength: 8 }), uri, (subscribed, updated) => {
        const expected = subscribed.some((each) => underOrSame(each, updated));
        expect(coveredBy(new Set(subscribed), updated)).toBe(expected);
      }),
      { numRuns: 20_000 },
    );
  });

  it("finds a parent, and only a parent, of a URI with more '/' than there are subscriptions", () => {
    const deep = `file:///${"d/".repeat(50)}leaf`;
    expect(coveredBy(new Set(["file:///d/d/"]), deep)).toBe(true);
    expect(coveredBy(new Set(["file:///d/d"]), deep)).toBe(true);
    expect(coveredBy(new Set(["file:///d/e"]), deep)).toBe(false);
    expect(coveredBy(new Set(["file:///d/dd"]), deep)).toBe(false);
  });

  it("answers no for an empty set, and for a URI subscribed to nothing above it", () => {
    expect(coveredBy(new Set(), "file:///a")).toBe(false);
    expect(coveredBy(new Set(["file:///a/b"]), "file:///a")).toBe(false);
    expect(coveredBy(new Set(["file:///a"]), "file:///ab")).toBe(false);
  });
});
