import { control, mode } from "./control.js";
import { app } from "./picomcp-app.js";

const listening = await app({ sessions: mode() !== "stateless" }).serve({ port: 0 });
control(listening.port);
