// Module loading hooks (Node's module.register, registered by record-loads.mjs): appends the URL of
// every module loaded from the measured build to a file, one a line, as Node loads it. Written at
// once and synchronously, so the list is whole however the program ends.
import { appendFileSync } from "node:fs";

let build = "";
let loads = "";

export function initialize(data) {
  build = data.build;
  loads = data.loads;
}

export async function load(url, context, nextLoad) {
  if (url.startsWith(build)) appendFileSync(loads, `${url}\n`);
  return nextLoad(url, context);
}
