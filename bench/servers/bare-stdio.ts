/** The bare stdio server: newline-delimited JSON-RPC, answered synchronously, one write per input chunk. */
import { bare } from "./bare.js";

const server = await bare();
let buffer = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk: string) => {
  buffer += chunk;
  let out = "";
  let start = 0;
  let newline = buffer.indexOf("\n");
  while (newline !== -1) {
    const response = server.handle(JSON.parse(buffer.slice(start, newline)));
    if (response) out += `${JSON.stringify(response)}\n`;
    start = newline + 1;
    newline = buffer.indexOf("\n", start);
  }
  buffer = buffer.slice(start);
  if (out) process.stdout.write(out);
});
