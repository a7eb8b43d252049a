/**
 * Raw HTTP over a real socket, for tests that must send what `fetch` will not: any `Host` header.
 */
import { request } from "node:http";
import { modernMessage } from "./http-helpers.js";

export interface WireReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The body as JSON, or undefined when it is not JSON. */
  json: Record<string, unknown> | undefined;
}

/**
 * One request to `url` (its path and port), with the headers given as they are, Host included; a
 * list is sent as that many lines.
 */
export function send(
  url: string,
  {
    method = "POST",
    headers = {},
    body,
  }: { method?: string; headers?: Record<string, string | string[]>; body?: unknown },
): Promise<WireReply> {
  const target = new URL(url);
  const payload = body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: target.hostname.replace(/^\[|\]$/g, ""),
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method,
        headers: {
          ...(payload === undefined
            ? {}
            : { "content-type": "application/json", "content-length": `${Buffer.byteLength(payload)}` }),
          accept: "application/json, text/event-stream",
          ...headers,
        },
      },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (text += chunk));
        response.on("end", () => {
          let json: Record<string, unknown> | undefined;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: response.statusCode ?? 0, headers: response.headers, text, json });
        });
        response.on("error", reject);
      },
    );
    outgoing.setTimeout(10_000, () => outgoing.destroy(new Error(`No answer from ${url} within 10 s`)));
    outgoing.on("error", reject);
    outgoing.end(payload);
  });
}

/** A 2026-07-28 request body and its standard headers (2026-07-28 §5.2), with `headers` added. */
export function modernCall(
  method: string,
  params: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): { headers: Record<string, string>; body: unknown } {
  const message = modernMessage(method, params);
  return { headers: { ...message.headers, ...headers }, body: message.body };
}

/** The parameters of a `WWW-Authenticate: Bearer` challenge. */
export function challengeOf(header: string | string[] | undefined): Record<string, string> {
  const params: Record<string, string> = {};
  const text = Array.isArray(header) ? header.join(", ") : (header ?? "");
  for (const match of text.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) params[match[1]!] = match[2]!;
  return params;
}
