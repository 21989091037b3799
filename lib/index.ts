// rx-advisors: what a ChatClient user needs. Explicit re-exports, grouped by role. The
// advisor contract is rx-advisors/advisor-api, retrieval rx-advisors/rag; names that moved
// there keep working from here for one release (./deprecated-root-exports.ts).

// Data model: messages, chunks, requests, responses, usage
export type {
  AssistantMessage,
  Message,
  MessageRole,
  ProviderMetadata,
  ReasoningPart,
  SystemMessage,
  ToolApprovalResponse,
  ToolCall,
  ToolMessage,
  UserMessage,
} from './core/message.js';
export type { MediaData, MediaPart } from './core/media-part.js';
export type {
  ChatChunk,
  ChatChunkType,
  DataChunk,
  DocumentSourceChunk,
  FinishChunk,
  FinishReason,
  MetadataChunk,
  ReasoningChunk,
  ReasoningDeltaChunk,
  RetryChunk,
  RoundEndChunk,
  RoundStartChunk,
  SourceChunk,
  TextDeltaChunk,
  ToolApprovalRequestChunk,
  ToolCallChunk,
  ToolCallDeltaChunk,
  ToolResultChunk,
  UrlSourceChunk,
  UsageChunk,
} from './core/chat-chunk.js';
export type { DocumentSource, Source, UrlSource } from './core/source.js';
export type {
  ChatOptions,
  PromptCacheBreakpoint,
  PromptCacheOptions,
  ResponseFormat,
  ToolChoice,
} from './core/chat-options.js';
export { ChatRequest, type ChatRequestInit, type RequestChatModel } from './core/chat-request.js';
export type { ChatResponse } from './core/chat-response.js';
export type { ChatModel } from './core/chat-model.js';
export type { JsonSchema, ToolDefinition } from './core/tool-definition.js';
export type { Usage } from './core/usage.js';
export { UsageAccumulator } from './core/usage-accumulator.js';
export { aggregate } from './core/aggregate.js';

// Simple advisors (the whole contract: rx-advisors/advisor-api)
export type { Advisor } from './advisor-api/advisor.js';
export { advisor, type AdvisorOptions } from './advisor-api/advisor.js';
export { Order } from './advisor-api/order.js';
export { AdvisorParams } from './advisor-api/advisor-params.js';

// Built-in advisors
export {
  LoggerAdvisor,
  type AdvisorLogger,
  type LoggedRequest,
  type LoggerAdvisorOptions,
} from './advisor/logger-advisor.js';
export {
  SafeGuardAdvisor,
  type SafeGuardAdvisorOptions,
  type SafeGuardScope,
} from './advisor/safe-guard-advisor.js';
export {
  RetryAdvisor,
  type RetryAdvisorOptions,
  type RetryBackoff,
} from './advisor/retry-advisor.js';
export { FallbackAdvisor, type FallbackAdvisorOptions } from './advisor/fallback-advisor.js';
export {
  PromptCachingAdvisor,
  type PromptCacheRound,
  type PromptCachingAdvisorOptions,
} from './advisor/prompt-caching-advisor.js';
export { ReReadingAdvisor, type ReReadingAdvisorOptions } from './advisor/re-reading-advisor.js';
export { EvaluationAdvisor, type EvaluationAdvisorOptions } from './advisor/evaluation-advisor.js';
export type {
  EvaluationInput,
  EvaluationJudge,
  EvaluationResult,
} from './advisor/evaluation-judge.js';

// Client
export { ChatClient, ChatClientBuilder } from './client/chat-client.js';
export { PromptSpec } from './client/prompt-spec.js';
export { CallResponseSpec } from './client/call-response-spec.js';
export { StreamResponseSpec } from './client/stream-response-spec.js';
export type { ToolLookup } from './client/tool-lookup.js';

// Tools and the tool loop
export type { Tool, ToolApprovalPredicate, ToolContext, ToolOutput } from './core/tool.js';
export type { ToolResultContent } from './core/tool-result-content.js';
export { tool, type ToolOptions } from './tools/tool-fn.js';
export type { ToolParameters } from './tools/tool-parameters.js';
export { ToolRegistry, type ToolRegistryOptions } from './tools/tool-registry.js';
export { executeToolCalls, type ExecuteToolCallsOptions } from './tools/execute-tool-calls.js';
export type { ToolErrorPolicy } from './tools/tool-execution.js';
export { ToolCallingAdvisor } from './tools/tool-calling-advisor.js';
export type {
  PreamblePolicy,
  ToolCallingAdvisorOptions,
  ToolEligibility,
} from './tools/tool-calling-advisor-options.js';
export type { ToolLoopState, ToolLoopSummary } from './tools/tool-loop-state.js';
export type {
  ToolApprovalDecision,
  ToolApprovalRequirement,
  ToolApprover,
} from './tools/tool-approval.js';

// Schemas (JSON Schema and zod)
export type { FromJsonSchema } from './schema/from-json-schema.js';
export type { ZodLikeSchema } from './schema/zod-like-schema.js';
export type { ValidationIssue } from './schema/validation-issue.js';
export type { SchemaLimits } from './schema/schema-limits.js';

// Structured output
export {
  StructuredOutputValidationAdvisor,
  type StructuredOutputValidationAdvisorOptions,
} from './output/structured-output-validation-advisor.js';
export {
  typedJsonSchema,
  type InferOutput,
  type OutputSchema,
  type TypedJsonSchema,
} from './output/output-schema.js';
export type { EntityOptions, EntityType } from './output/entity-options.js';
export { extractJson, type ExtractedJson, type ExtractJsonOptions } from './output/extract-json.js';
export { formatInstructions } from './output/format-instructions.js';
export {
  validationFeedback,
  type ValidationFeedbackOptions,
} from './output/validation-feedback.js';
export { parseEntity } from './output/parse-entity.js';
export { streamEntity, type DeepPartial } from './output/stream-entity.js';

// Chat memory
export type { ChatMemory } from './memory/chat-memory.js';
export type { ChatMemoryRepository } from './memory/chat-memory-repository.js';
export { InMemoryChatMemoryRepository } from './memory/in-memory-chat-memory-repository.js';
export {
  MessageWindowChatMemory,
  type MessageWindowChatMemoryOptions,
} from './memory/message-window-chat-memory.js';
export {
  TokenWindowChatMemory,
  type TokenWindowChatMemoryOptions,
} from './memory/token-window-chat-memory.js';
export type { ChatMemoryUsageReport } from './memory/chat-memory-usage-report.js';
export type { ChatMemoryAdvisorOptions } from './memory/memory-advisor-options.js';
export {
  SummarizingChatMemoryAdvisor,
  type Summarizer,
  type SummarizingChatMemoryAdvisorOptions,
  type SummaryRequest,
} from './memory/summarizing-chat-memory-advisor.js';
export {
  ContextEditingAdvisor,
  type ContextEditingAdvisorOptions,
} from './memory/context-editing-advisor.js';
export {
  MessageChatMemoryAdvisor,
  type MessageChatMemoryAdvisorOptions,
} from './memory/message-chat-memory-advisor.js';
export {
  PromptChatMemoryAdvisor,
  type PromptChatMemoryAdvisorOptions,
} from './memory/prompt-chat-memory-advisor.js';

// Errors
export { RxAdvisorsError, type RxAdvisorsErrorOptions } from './errors/rx-advisors-error.js';
export { InvalidOptionsError } from './errors/invalid-options-error.js';
export { ProviderError, type ProviderErrorOptions } from './errors/provider-error.js';
export {
  ProviderIdleTimeoutError,
  type ProviderIdleTimeoutErrorOptions,
} from './errors/provider-idle-timeout-error.js';
export {
  ProviderProtocolError,
  type ProviderProtocolErrorOptions,
} from './errors/provider-protocol-error.js';
export { ToolLoopLimitError } from './errors/tool-loop-limit-error.js';
export {
  ToolArgumentsError,
  type ToolArgumentsErrorOptions,
} from './errors/tool-arguments-error.js';
export { ToolNotFoundError } from './errors/tool-not-found-error.js';
export { ToolTimeoutError } from './errors/tool-timeout-error.js';
export { ToolApprovalError, type ToolApprovalErrorCode } from './errors/tool-approval-error.js';
export { ToolExecutionError } from './errors/tool-execution-error.js';
export { ToolCallLimitError } from './errors/tool-call-limit-error.js';
export { TooManyToolCallsError } from './errors/too-many-tool-calls-error.js';
export { ToolResultError } from './errors/tool-result-error.js';
export { UnsupportedMediaError } from './errors/unsupported-media-error.js';
export { ChatMemoryMediaLimitError } from './errors/chat-memory-media-limit-error.js';
export { MediaLimitError } from './errors/media-limit-error.js';
export type { MediaLimits } from './core/media-limits.js';
export {
  StructuredOutputError,
  type StructuredOutputErrorOptions,
  type StructuredOutputIssue,
} from './errors/structured-output-error.js';
export { EntityParseError, type EntityParseIssue } from './errors/entity-parse-error.js';
export { EvaluationError } from './errors/evaluation-error.js';
export {
  ChatMemoryError,
  type ChatMemoryErrorOptions,
  type ChatMemoryOperation,
} from './errors/chat-memory-error.js';
export { MissingConversationIdError } from './errors/missing-conversation-id-error.js';

// Agents composed of agents (docs/agents.md)
export { agentTool } from './agents/agent-tool.js';
export type { AgentErrorPolicy, AgentToolOptions } from './agents/agent-tool-options.js';
export { agentChunkOf, type AgentChunk } from './agents/agent-chunk.js';
export { agentPathOf } from './agents/agent-frame.js';
export { agentProgress, type AgentProgress } from './agents/agent-progress.js';
export { HandoffAdvisor, type AgentSpeaker } from './agents/handoff-advisor.js';
export type { Handoff, HandoffAdvisorOptions } from './agents/handoff-options.js';
export { AgentCycleError } from './errors/agent-cycle-error.js';
export { AgentDepthError } from './errors/agent-depth-error.js';
export { AgentRunError } from './errors/agent-run-error.js';

// Moved to rx-advisors/advisor-api or rx-advisors/rag, or internal: deprecated, kept for
// one release. One explicit list, each name marked @deprecated with its new home.
export * from './deprecated-root-exports.js';

// Guardrails: the chunk and the error a trip ends a stream with (the guardrails are in rx-advisors/guardrails)
export type { GuardrailTrippedChunk } from './core/chat-chunk.js';
export { GuardrailTrippedError, type GuardrailStage } from './errors/guardrail-tripped-error.js';
// Loop control: stop conditions, the stop reason, hook errors (docs/loop-control.md)
export type {
  BudgetExceededReason,
  LoopStopReason,
  StopConditionReason,
} from './core/loop-stop-reason.js';
export {
  hasToolCall,
  roundCountIs,
  stepCountIs,
  stopCondition,
  usageAbove,
  type LoopProgress,
  type StopCondition,
  type UsageAboveOptions,
} from './tools/stop-conditions.js';
export { LoopHookError } from './errors/loop-hook-error.js';

// Budgets: a run's limits enforced mid-stream (docs/loop-control.md)
export { BudgetAdvisor } from './budget/budget-advisor.js';
export type { BudgetAdvisorOptions, ModelPrice } from './budget/budget-advisor-options.js';
export { BudgetExceededError, type BudgetSpent } from './errors/budget-exceeded-error.js';

// Loop control: per-round preparation and tool-call repair (docs/loop-control.md)
export type { PrepareRound, RoundPreparation } from './tools/prepare-round.js';
export type { ToolCallRepair, ToolCallRepairRequest } from './tools/repair-tool-call.js';
export {
  keywordToolIndex,
  toolSearch,
  type ToolIndex,
  type ToolSearchOptions,
} from './tools/tool-search.js';
export {
  embeddingToolIndex,
  type EmbeddingToolIndexOptions,
} from './vector/embedding-tool-index.js';
