// The HTTP base: the listing's server over Streamable HTTP on a free port, announced on stderr.
import { weather } from "./weather.js";

const listening = await weather().serve({ port: 0 });
console.error(JSON.stringify({ url: listening.url }));
