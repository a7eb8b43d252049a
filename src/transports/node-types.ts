/**
 * Node's request and response as `server.node` takes them, written out by the few members that make
 * them what they are, so that picomcp's published types never name `node:http`: a Workers or Deno
 * project without `@types/node` type-checks them too. `http.IncomingMessage` and `http.ServerResponse`
 * (and Express's, Fastify's `raw`, which extend them) fit; src/transports/node.ts reads them as the
 * real thing. `on`'s listener takes `unknown[]`: @types/node 25 and later declare the catch-all
 * `on(eventName, listener: (...args: any[]) => void)`, and `any` fits `unknown` but not `never`.
 */
export interface NodeIncomingMessage {
  readonly method?: string | undefined;
  readonly url?: string | undefined;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  on(event: string, listener: (...args: unknown[]) => void): unknown;
}

export interface NodeServerResponse {
  readonly headersSent: boolean;
  writeHead(statusCode: number, headers?: Record<string, string | number | string[]>): unknown;
  end(): unknown;
}
