import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { app } from "./sdk2-app.js";

serveStdio(app);
