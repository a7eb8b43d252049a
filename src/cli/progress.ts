/**
 * The progress bar `picomcp call` draws on stderr from the tool's `notifications/progress`: redrawn
 * in place on a terminal, one line per update otherwise (a log keeps every step).
 */
import { printable } from "./printable.js";

const WIDTH = 20;

export class ProgressBar {
  readonly #stream: NodeJS.WriteStream;
  #drawn = false;

  constructor(stream: NodeJS.WriteStream) {
    this.#stream = stream;
  }

  update(params: Record<string, unknown>): void {
    const progress = Number(params.progress);
    const total = typeof params.total === "number" && params.total > 0 ? params.total : undefined;
    const message = typeof params.message === "string" ? ` ${printable(params.message)}` : "";
    let line: string;
    if (total === undefined) {
      line = `[${"?".repeat(WIDTH)}] ${progress}${message}`;
    } else {
      const share = Math.min(1, Math.max(0, progress / total));
      const filled = Math.round(share * WIDTH);
      line = `[${"#".repeat(filled)}${"-".repeat(WIDTH - filled)}] ${Math.round(share * 100)}% ${progress}/${total}${message}`;
    }
    if (this.#stream.isTTY) this.#stream.write(`\r\x1b[2K${line}`);
    else this.#stream.write(`${line}\n`);
    this.#drawn = true;
  }

  /** Ends the bar's line, so what follows starts on a line of its own. */
  done(): void {
    if (this.#drawn && this.#stream.isTTY) this.#stream.write("\n");
    this.#drawn = false;
  }
}
