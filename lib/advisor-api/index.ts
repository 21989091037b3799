// rx-advisors/advisor-api: the advisor contract, what every advisor is written against (as
// Spring AI keeps its advisor `api` package apart from the advisors). Explicit re-exports,
// grouped by role.

// Advisors and the chain
export type { Advisor, AdvisorChain } from './advisor.js';
export { advisor, type AdvisorOptions } from './advisor.js';
export {
  createAdvisorChain,
  sortAdvisors,
  type CreateAdvisorChainOptions,
} from './advisor-chain.js';
export { Order } from './order.js';

// What advisors share through request.context
export { ContextKeys } from './context-keys.js';
export { AdvisorParams } from './advisor-params.js';
export { ToolLoopTranscript, type TranscriptMark } from '../core/tool-loop-transcript.js';

// Roles the client and the tool loop look for
export {
  isConversationHistoryAware,
  isToolContributor,
  isToolLoop,
  type ConversationHistoryAware,
  type ToolContributor,
  type ToolLoopRole,
} from './advisor-roles.js';

// Advisors that re-run the chain (retry, validation, evaluation)
export {
  recursiveAdvisor,
  type RecursionDecision,
  type RecursionState,
  type RecursionStep,
  type RecursiveAdvisorOptions,
} from './recursive-advisor.js';
export type { RecordedRecursionDecision, RecursionDecisionLog } from './recursion-decisions.js';

// The run's seams: model-call and tool-call interceptors, nested calls (docs/seams.md)
export { CallInterceptors, type InterceptOptions } from './call-interceptors.js';
export type { ModelCall, ModelCallInterceptor } from './model-call-interceptor.js';
export type {
  ToolCallEvent,
  ToolCallInterceptor,
  ToolCallInvocation,
  ToolCallOutcome,
  ToolExecuteInvocation,
} from './tool-call-interceptor.js';
export { callDepth, parentCallOf } from './parent-call.js';

// Usage over rounds
export { UsageAccumulator } from '../core/usage-accumulator.js';
export { emptyUsage } from '../core/usage.js';
