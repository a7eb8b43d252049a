// The base plus one prompt.
import { weather } from "./weather.js";

weather()
  .prompt("packing_list", {
    description: "What to pack for the week's weather in Lisbon",
    get: () => "Read the forecast for Lisbon, then list what to pack.",
  })
  .serve();
