import { app } from "./picomcp-app.js";

await app().serve();
