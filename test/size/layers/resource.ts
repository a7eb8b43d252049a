// The base plus one fixed resource.
import { weather } from "./weather.js";

weather()
  .resource("weather://cities", {
    description: "The cities the forecast knows",
    read: () => "Lisbon, Oslo",
  })
  .serve();
