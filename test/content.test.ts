import { Buffer } from "node:buffer";
import { describe, expect, it } from "vitest";
import { isContentBlock } from "../src/content/check.js";
import { checkIcons, toBase64 } from "../src/core/content.js";
import { audio, embed, image, link, text } from "../src/index.js";

/** Bytes 0…255 repeated, so every byte value (and every base64 alphabet letter) appears. */
function bytes(length: number): Uint8Array {
  const data = new Uint8Array(length);
  for (let i = 0; i < length; i++) data[i] = (i * 7 + 3) % 256;
  return data;
}

describe("text", () => {
  it("makes a text block, with annotations and _meta when given", () => {
    expect(text("hi")).toEqual({ type: "text", text: "hi" });
    expect(text("hi", { annotations: { audience: ["user"], priority: 0.5 }, _meta: { "com.example/x": 1 } })).toEqual({
      type: "text",
      text: "hi",
      annotations: { audience: ["user"], priority: 0.5 },
      _meta: { "com.example/x": 1 },
    });
  });
});

describe("image and audio", () => {
  it("encode bytes as standard base64", () => {
    const data = bytes(300);
    expect(image(data, "image/png")).toEqual({
      type: "image",
      data: Buffer.from(data).toString("base64"),
      mimeType: "image/png",
    });
    expect(audio(data, "audio/wav")).toEqual({
      type: "audio",
      data: Buffer.from(data).toString("base64"),
      mimeType: "audio/wav",
    });
  });

  it("encode data larger than one 32 KiB chunk, at and around chunk boundaries", () => {
    for (const length of [0, 1, 2, 3, 0x8000 - 1, 0x8000, 0x8000 + 1, 3 * 0x8000 + 2, 200_000]) {
      const data = bytes(length);
      expect(image(data, "image/png").data, `length ${length}`).toBe(Buffer.from(data).toString("base64"));
    }
  });

  it("encode a view into a larger buffer, not the whole buffer", () => {
    const whole = bytes(100);
    const view = whole.subarray(10, 20);
    expect(audio(view, "audio/mpeg").data).toBe(Buffer.from(whole.slice(10, 20)).toString("base64"));
  });

  it("pass base64 strings through unchanged", () => {
    expect(image("iVBORw0KGgo=", "image/png")).toEqual({ type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" });
    expect(audio("UklGRg==", "audio/wav", { annotations: { priority: 1 } })).toEqual({
      type: "audio",
      data: "UklGRg==",
      mimeType: "audio/wav",
      annotations: { priority: 1 },
    });
  });

  it("decode back to the same bytes", () => {
    const data = bytes(70_001);
    expect(new Uint8Array(Buffer.from(toBase64(data), "base64"))).toEqual(data);
  });
});

describe("link", () => {
  it("makes a resource_link with the seed's options", () => {
    expect(link("file:///reports/q3.csv", "q3.csv", { mimeType: "text/csv" })).toEqual({
      type: "resource_link",
      uri: "file:///reports/q3.csv",
      name: "q3.csv",
      mimeType: "text/csv",
    });
  });

  it("keeps every optional Resource field", () => {
    expect(
      link("https://example.com/a", "a", {
        title: "A",
        description: "The a file",
        size: 12,
        icons: [{ src: "https://example.com/a.png" }],
        annotations: { lastModified: "2026-01-01T00:00:00Z" },
      }),
    ).toEqual({
      type: "resource_link",
      uri: "https://example.com/a",
      name: "a",
      title: "A",
      description: "The a file",
      size: 12,
      icons: [{ src: "https://example.com/a.png" }],
      annotations: { lastModified: "2026-01-01T00:00:00Z" },
    });
  });
});

describe("embed", () => {
  it("embeds text contents", () => {
    expect(embed("file:///notes.md", "# Notes", { mimeType: "text/markdown" })).toEqual({
      type: "resource",
      resource: { uri: "file:///notes.md", text: "# Notes", mimeType: "text/markdown" },
    });
    expect(embed("file:///plain.txt", "")).toEqual({
      type: "resource",
      resource: { uri: "file:///plain.txt", text: "" },
    });
  });

  it("embeds bytes as a base64 blob", () => {
    const data = bytes(40_000);
    expect(embed("file:///a.bin", data, { mimeType: "application/octet-stream" })).toEqual({
      type: "resource",
      resource: {
        uri: "file:///a.bin",
        blob: Buffer.from(data).toString("base64"),
        mimeType: "application/octet-stream",
      },
    });
  });

  it("puts mimeType on the contents and annotations on the block", () => {
    const block = embed("file:///a.txt", "x", { mimeType: "text/plain", annotations: { audience: ["assistant"] } });
    expect(block).toEqual({
      type: "resource",
      resource: { uri: "file:///a.txt", text: "x", mimeType: "text/plain" },
      annotations: { audience: ["assistant"] },
    });
    expect(block).not.toHaveProperty("mimeType");
  });
});

describe("isContentBlock", () => {
  it("recognises the five block types, each with its field, and nothing else", () => {
    for (const block of [text("a"), image("AA==", "image/png"), audio("AA==", "audio/wav"), link("x:y", "y")]) {
      expect(isContentBlock(block)).toBe(true);
    }
    expect(isContentBlock(embed("x:y", "z"))).toBe(true);
    for (const value of [
      null,
      undefined,
      "text",
      1,
      [],
      {},
      { type: "video" },
      { type: 1 },
      { type: "constructor" },
      { type: "text" },
      { type: "text", text: 1 },
      { type: "image", url: "https://example.com/a.png" },
      { type: "audio", mimeType: "audio/wav" },
      { type: "resource_link", name: "y" },
      { type: "resource", resource: "file:///a.txt" },
      { type: "resource", resource: null },
      { type: "resource", resource: [] },
    ]) {
      expect(isContentBlock(value)).toBe(false);
    }
  });
});

describe("checkIcons", () => {
  it("accepts https: and data: sources, in any case", () => {
    expect(() =>
      checkIcons(
        [{ src: "https://example.com/i.png" }, { src: "data:image/png;base64,AA==" }, { src: "HTTPS://X/Y" }],
        "X",
      ),
    ).not.toThrow();
    expect(() => checkIcons(undefined, "X")).not.toThrow();
  });

  it("rejects any other scheme, naming the owner and the source", () => {
    expect(() => checkIcons([{ src: "http://example.com/i.png" }], 'Tool "t"')).toThrow(
      'Tool "t" has an icon with src "http://example.com/i.png"; icon sources must be https: or data: URIs.',
    );
    expect(() => checkIcons([{ src: "file:///i.png" }], "X")).toThrow(/file:\/\/\/i\.png/);
    expect(() => checkIcons([{ src: "/relative.png" }], "X")).toThrow(/must be https: or data:/);
  });
});
