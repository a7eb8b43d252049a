// What a test suite loads from `picomcp/testing`: the contract kit, the HTTP harness, the token issuer and the linter.
import { contract, harness, lint, testIssuer } from "../../src/testing.js";

export { contract, harness, lint, testIssuer };
