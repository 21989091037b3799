/**
 * The OpenTelemetry GenAI semantic-convention names this entry point writes, copied from
 * `@opentelemetry/semantic-conventions` 1.45.0 (`/incubating`): the incubating names are
 * not stable, and OpenTelemetry advises copying them rather than importing the package at
 * run time (it is not a dependency). `spec/otel/gen-ai-conventions.spec.ts` checks every
 * name against the installed package, so an update that renames one fails there.
 * @internal
 */
export const GenAi = {
  SEMCONV_VERSION: '1.45.0',
  OPERATION_NAME: 'gen_ai.operation.name',
  PROVIDER_NAME: 'gen_ai.provider.name',
  CONVERSATION_ID: 'gen_ai.conversation.id',
  WORKFLOW_NAME: 'gen_ai.workflow.name',
  AGENT_NAME: 'gen_ai.agent.name',
  AGENT_DESCRIPTION: 'gen_ai.agent.description',
  REQUEST_MODEL: 'gen_ai.request.model',
  REQUEST_TEMPERATURE: 'gen_ai.request.temperature',
  REQUEST_TOP_P: 'gen_ai.request.top_p',
  REQUEST_MAX_TOKENS: 'gen_ai.request.max_tokens',
  REQUEST_STOP_SEQUENCES: 'gen_ai.request.stop_sequences',
  REQUEST_STREAM: 'gen_ai.request.stream',
  RESPONSE_ID: 'gen_ai.response.id',
  RESPONSE_MODEL: 'gen_ai.response.model',
  RESPONSE_FINISH_REASONS: 'gen_ai.response.finish_reasons',
  RESPONSE_TIME_TO_FIRST_CHUNK: 'gen_ai.response.time_to_first_chunk',
  USAGE_INPUT_TOKENS: 'gen_ai.usage.input_tokens',
  USAGE_OUTPUT_TOKENS: 'gen_ai.usage.output_tokens',
  USAGE_CACHE_READ_INPUT_TOKENS: 'gen_ai.usage.cache_read.input_tokens',
  USAGE_CACHE_CREATION_INPUT_TOKENS: 'gen_ai.usage.cache_creation.input_tokens',
  USAGE_REASONING_OUTPUT_TOKENS: 'gen_ai.usage.reasoning.output_tokens',
  TOKEN_TYPE: 'gen_ai.token.type',
  TOOL_NAME: 'gen_ai.tool.name',
  TOOL_DESCRIPTION: 'gen_ai.tool.description',
  TOOL_TYPE: 'gen_ai.tool.type',
  TOOL_CALL_ID: 'gen_ai.tool.call.id',
  TOOL_CALL_ARGUMENTS: 'gen_ai.tool.call.arguments',
  TOOL_CALL_RESULT: 'gen_ai.tool.call.result',
  INPUT_MESSAGES: 'gen_ai.input.messages',
  OUTPUT_MESSAGES: 'gen_ai.output.messages',
  ERROR_TYPE: 'error.type',
  OPERATION_CHAT: 'chat',
  OPERATION_EXECUTE_TOOL: 'execute_tool',
  OPERATION_INVOKE_WORKFLOW: 'invoke_workflow',
  OPERATION_INVOKE_AGENT: 'invoke_agent',
  METRIC_TOKEN_USAGE: 'gen_ai.client.token.usage',
  METRIC_OPERATION_DURATION: 'gen_ai.client.operation.duration',
  METRIC_TIME_TO_FIRST_CHUNK: 'gen_ai.client.operation.time_to_first_chunk',
} as const;

/**
 * The names this entry point adds where the GenAI conventions have none (namespaced
 * `rx_advisors.*`).
 * @internal
 */
export const RxAttributes = {
  CANCELLED: 'rx_advisors.cancelled',
  ROUND: 'rx_advisors.round',
  ROUNDS: 'rx_advisors.rounds',
  MODEL_CALL: 'rx_advisors.model_call',
  ADVISOR_NAME: 'rx_advisors.advisor.name',
  ADVISOR_ORDER: 'rx_advisors.advisor.order',
  REQUEST_OPTIONS: 'rx_advisors.request.options',
  EVENT_RETRY: 'rx_advisors.retry',
  EVENT_FIRST_CHUNK: 'rx_advisors.first_chunk',
  RETRY_ATTEMPT: 'rx_advisors.retry.attempt',
  RETRY_ADVISOR: 'rx_advisors.retry.advisor',
  RETRY_REASON: 'rx_advisors.retry.reason',
  RETRY_DELAY: 'rx_advisors.retry.delay_ms',
  METRIC_TOOL_DURATION: 'rx_advisors.tool.duration',
  METRIC_TOOL_ERRORS: 'rx_advisors.tool.errors',
  METRIC_ROUNDS: 'rx_advisors.call.rounds',
  AGENT_PATH: 'rx_advisors.agent.path',
  EVENT_GUARDRAIL_TRIPPED: 'rx_advisors.guardrail.tripped',
  GUARDRAIL_NAME: 'rx_advisors.guardrail.name',
  GUARDRAIL_STAGE: 'rx_advisors.guardrail.stage',
  GUARDRAIL_WITHDRAW: 'rx_advisors.guardrail.withdraw',
  METRIC_GUARDRAIL_TRIPS: 'rx_advisors.guardrail.trips',
} as const;
