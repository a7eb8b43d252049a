// The base of the layer table: the listing's server over stdio, no layer added.
// Also the `subscriptions/listen` row's program: listening needs nothing registered.
import { weather } from "./weather.js";

weather().serve();
