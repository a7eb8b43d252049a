/**
 * `picomcp/testing`: test each tool's contract the way the tool-design guide asks — representative,
 * invalid and unauthorized inputs — in-process or over the real HTTP handling, and lint the plan.
 * See docs/designing-tools.md and docs/authorization.md.
 */

export { type Finding, type LintOptions, type LintReport, lint } from "./lint.js";
export {
  type ContractCounts,
  ContractError,
  type ContractOptions,
  type ContractReport,
  contract,
  type InvalidInput,
  type ToolContract,
  type UnauthorizedCall,
} from "./testing/contract.js";
export {
  type Answer,
  type Fetcher,
  type Harness,
  type HarnessOptions,
  harness,
  type Message,
  type RequestOptions,
  type Subscription,
} from "./testing/harness.js";
export { type MintOptions, type TestIssuer, type TestIssuerOptions, testIssuer } from "./testing/issuer.js";
