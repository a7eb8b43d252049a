/**
 * A raw TCP client of an HTTP server (node:net), for what fetch and node:http will not send: forged
 * or malformed headers, a body that never ends, a Content-Length that lies. It records what the
 * server answered, how much of what it wrote the kernel took, and whether the server closed.
 */
import { connect, type Socket } from "node:net";

export interface RawResponse {
  status: number;
  /** Header names lower-cased. */
  headers: Record<string, string>;
  /** What followed the head so far. */
  body: string;
}

export class RawClient {
  readonly #socket: Socket;
  #received = Buffer.alloc(0);
  /** Bytes the kernel took (their write callback ran without error). */
  written = 0;
  /** The written count when the response head arrived. */
  writtenAtResponse: number | undefined;
  /** Why writing stopped: the socket's error code, if there was one. */
  error: string | undefined;
  /** Whether the other side ended or the connection closed. */
  ended = false;
  readonly closed: Promise<void>;
  readonly #waiters = new Set<() => void>();

  private constructor(socket: Socket) {
    this.#socket = socket;
    socket.on("data", (chunk: Buffer) => {
      this.#received = Buffer.concat([this.#received, chunk]);
      if (this.writtenAtResponse === undefined && this.#received.includes("\r\n\r\n")) {
        this.writtenAtResponse = this.written;
      }
      this.#wake();
    });
    socket.on("error", (error: NodeJS.ErrnoException) => {
      this.error ??= error.code ?? error.message;
      this.#wake();
    });
    socket.on("drain", () => this.#wake());
    socket.on("end", () => {
      this.ended = true;
      this.#wake();
    });
    this.closed = new Promise((resolve) =>
      socket.on("close", () => {
        this.ended = true;
        this.#wake();
        resolve();
      }),
    );
  }

  static connect(port: number, host = "127.0.0.1"): Promise<RawClient> {
    return new Promise((resolve, reject) => {
      const socket = connect({ port, host }, () => {
        socket.off("error", reject);
        resolve(new RawClient(socket));
      });
      socket.once("error", reject);
    });
  }

  /** Writes `data`, waiting while the socket is full; false once the connection is gone. */
  async write(data: string | Buffer): Promise<boolean> {
    if (this.ended || this.error !== undefined) return false;
    const size = Buffer.byteLength(data);
    const more = this.#socket.write(data, (error) => {
      if (!error) this.written += size;
    });
    if (!more) await this.#until(() => this.#socket.writableLength === 0 || this.ended || this.error !== undefined);
    return !this.ended && this.error === undefined;
  }

  /**
   * Writes `chunk` over and over until the connection is gone, `limit` bytes were written, or
   * `timeoutMs` passed (each a failure guard for the test to assert on).
   */
  async pump(chunk: Buffer, limit: number, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.written < limit && Date.now() < deadline && (await this.write(chunk))) {
      // Let the reader run between writes: the response must be seen when it comes.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** The response, once its head (and `bodyBytes` of body) arrived; fails after `timeoutMs`. */
  async response(timeoutMs = 10_000, bodyBytes = 0): Promise<RawResponse> {
    const complete = () => {
      const end = this.#received.indexOf("\r\n\r\n");
      return end !== -1 && this.#received.length - end - 4 >= bodyBytes;
    };
    await this.#until(() => complete() || this.ended, timeoutMs, "the response");
    const text = this.#received.toString("latin1");
    const end = text.indexOf("\r\n\r\n");
    if (end === -1) throw new Error(`no response head before the connection ended: ${JSON.stringify(text)}`);
    const [status, ...lines] = text.slice(0, end).split("\r\n");
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(":");
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    return {
      status: Number(status!.split(" ")[1]),
      headers,
      body: Buffer.from(text.slice(end + 4), "latin1").toString(),
    };
  }

  /** A whole response with a Content-Length body, taken off what was received (the next call reads the next one). */
  async fullResponse(timeoutMs = 10_000): Promise<RawResponse> {
    const length = Number((await this.response(timeoutMs)).headers["content-length"] ?? 0);
    const response = await this.response(timeoutMs, length);
    const start = this.#received.indexOf("\r\n\r\n") + 4;
    response.body = this.#received.subarray(start, start + length).toString();
    this.#received = this.#received.subarray(start + length);
    return response;
  }

  /** Resolves once the connection is gone; fails after `timeoutMs`. */
  async gone(timeoutMs = 10_000): Promise<void> {
    await this.#until(() => this.ended || this.error !== undefined, timeoutMs, "the connection closing");
  }

  destroy(): void {
    this.#socket.destroy();
  }

  /** Stops reading what the server sends (the kernel's buffers fill, then the server's), or reads again. */
  reading(on: boolean): void {
    if (on) this.#socket.resume();
    else this.#socket.pause();
  }

  #wake(): void {
    for (const wake of this.#waiters) wake();
  }

  async #until(test: () => boolean, timeoutMs = 10_000, what = "the condition"): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!test()) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`${what} did not happen within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          this.#waiters.delete(done);
          resolve();
        };
        const timer = setTimeout(done, Math.min(left, 100));
        this.#waiters.add(done);
      });
    }
  }
}

/** The head of an HTTP/1.1 request. */
export function requestHead(method: string, path: string, headers: Record<string, string>): string {
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
  return `${method} ${path} HTTP/1.1\r\n${lines.join("\r\n")}\r\n\r\n`;
}

/** One chunk of a chunked body (RFC 9112 §7.1). */
export function chunkOf(data: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`${data.length.toString(16)}\r\n`), data, Buffer.from("\r\n")]);
}
