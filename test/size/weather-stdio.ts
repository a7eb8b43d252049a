// Size fixture (test/size.test.ts): the listing's example as it is, `pico({ name: "weather" })
// .tool("forecast", { … }).serve()`, a stdio tool server. The test runs it and counts what it loads.
import { z } from "zod";
import { pico } from "../../src/index.js";
import { forecast } from "./forecasts.js";

pico({ name: "weather" })
  .tool("forecast", {
    title: "Weather forecast",
    description:
      "The weather forecast for a city for the coming days: conditions and the day's low and high in °C. " +
      "Use it when the user asks what the weather will be like.",
    input: z.object({
      city: z.string().describe('The city, such as "Lisbon"'),
      days: z.number().int().min(1).max(7).default(3).describe("How many days, counting today: 1 to 7"),
    }),
    annotations: { readOnlyHint: true, openWorldHint: false },
    run: ({ city, days }) => forecast(city, days),
  })
  .serve();
