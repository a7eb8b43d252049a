// Tests that drive the request-scoped core directly (a Registry and a Dispatcher, no Server) get the
// layers the server module wires in (asking the client, resources and prompts, caller checks).
import "../src/server.js";
