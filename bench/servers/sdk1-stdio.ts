import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { app } from "./sdk1-app.js";

await app().connect(new StdioServerTransport());
