// The base plus one middleware around every request (server.use).
import { weather } from "./weather.js";

weather()
  .use(async (call, next) => {
    const result = await next();
    console.error(`${call.method} answered`);
    return result;
  })
  .serve();
