/**
 * A minimal HTTP/1.1 keep-alive client over a raw socket: one request at a time per connection,
 * Content-Length or chunked bodies, JSON or SSE answers. It costs the driver far less CPU than
 * node:http's client, which matters on a 2-core machine where the driver shares the CPUs with the server.
 */
import { connect, type Socket } from "node:net";

export interface HttpAnswer {
  status: number;
  headers: Record<string, string>;
  /** The JSON-RPC messages of the body: one for a JSON body, each `data:` event of an SSE body. */
  messages: unknown[];
}

export class HttpConnection {
  readonly #socket: Socket;
  readonly #host: string;
  #buffer: Buffer = Buffer.alloc(0);
  #waiting: { resolve: (answer: HttpAnswer) => void; reject: (error: Error) => void } | undefined;
  #closed: Error | undefined;

  private constructor(socket: Socket, port: number) {
    this.#socket = socket;
    this.#host = `127.0.0.1:${port}`;
    socket.setNoDelay(true);
    socket.on("data", (chunk: Buffer) => {
      this.#buffer = this.#buffer.length === 0 ? chunk : Buffer.concat([this.#buffer, chunk]);
      this.#parse();
    });
    const close = (error?: Error) => {
      this.#closed = error ?? new Error("the server closed the connection");
      this.#waiting?.reject(this.#closed);
      this.#waiting = undefined;
    };
    socket.on("error", close);
    socket.on("close", () => close());
  }

  static open(port: number): Promise<HttpConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, "127.0.0.1", () => {
        socket.off("error", reject);
        resolve(new HttpConnection(socket, port));
      });
      socket.once("error", reject);
    });
  }

  post(path: string, body: string, headers: Record<string, string>): Promise<HttpAnswer> {
    return this.request("POST", path, body, headers);
  }

  request(method: string, path: string, body: string, headers: Record<string, string>): Promise<HttpAnswer> {
    if (this.#closed) return Promise.reject(this.#closed);
    if (this.#waiting) return Promise.reject(new Error("one request at a time per connection"));
    let head = `${method} ${path} HTTP/1.1\r\nHost: ${this.#host}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${Buffer.byteLength(body)}\r\n`;
    for (const name in headers) head += `${name}: ${headers[name]}\r\n`;
    return new Promise((resolve, reject) => {
      this.#waiting = { resolve, reject };
      this.#socket.write(`${head}\r\n${body}`);
    });
  }

  close(): void {
    this.#socket.destroy();
  }

  #parse(): void {
    const buffer = this.#buffer;
    const end = buffer.indexOf("\r\n\r\n");
    if (end === -1) return;
    const lines = buffer.toString("latin1", 0, end).split("\r\n");
    const status = Number(lines[0]!.split(" ")[1]);
    const headers: Record<string, string> = {};
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i]!;
      const colon = line.indexOf(":");
      headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
    }
    let body: string;
    let consumed: number;
    const start = end + 4;
    if (headers["content-length"] !== undefined) {
      const length = Number(headers["content-length"]);
      if (buffer.length < start + length) return;
      body = buffer.toString("utf8", start, start + length);
      consumed = start + length;
    } else if (headers["transfer-encoding"]?.includes("chunked")) {
      const parts: Buffer[] = [];
      let at = start;
      for (;;) {
        const lineEnd = buffer.indexOf("\r\n", at);
        if (lineEnd === -1) return;
        const size = Number.parseInt(buffer.toString("latin1", at, lineEnd), 16);
        if (buffer.length < lineEnd + 2 + size + 2) return;
        if (size === 0) {
          consumed = lineEnd + 4;
          break;
        }
        parts.push(buffer.subarray(lineEnd + 2, lineEnd + 2 + size));
        at = lineEnd + 2 + size + 2;
      }
      body = Buffer.concat(parts).toString("utf8");
    } else if (status === 204 || status === 304 || status < 200) {
      body = "";
      consumed = start;
    } else {
      this.#fail(new Error(`a ${status} answer with neither Content-Length nor chunked encoding`));
      return;
    }
    this.#buffer = buffer.subarray(consumed);
    const waiting = this.#waiting;
    this.#waiting = undefined;
    if (!waiting) {
      this.#fail(new Error("an answer nobody asked for"));
      return;
    }
    try {
      waiting.resolve({ status, headers, messages: messagesOf(body, headers["content-type"]) });
    } catch (thrown) {
      waiting.reject(thrown as Error);
    }
    if (this.#buffer.length > 0) this.#parse();
  }

  #fail(error: Error): void {
    this.#closed = error;
    this.#waiting?.reject(error);
    this.#waiting = undefined;
    this.#socket.destroy();
  }
}

function messagesOf(body: string, type: string | undefined): unknown[] {
  if (body === "") return [];
  if (type?.startsWith("text/event-stream")) {
    const messages: unknown[] = [];
    for (const line of body.split("\n")) {
      if (!line.startsWith("data:")) continue;
      const data = line.slice(5).trim();
      if (data) messages.push(JSON.parse(data));
    }
    return messages;
  }
  return [JSON.parse(body)];
}
