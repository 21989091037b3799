import { assertNever } from '../../core/assert-never.js';
import { jsonSchemaFormat } from './json-schema-format.js';
import type OpenAI from 'openai';
import type { ChatOptions, ResponseFormat, ToolChoice } from '../../core/chat-options.js';
import type { ChatRequest } from '../../core/chat-request.js';
import type { Message, ReasoningPart } from '../../core/message.js';
import { responsesToolOutput, responsesUserContent } from './responses-media.js';

type ResponseCreateParamsStreaming = OpenAI.Responses.ResponseCreateParamsStreaming;
type ResponseInputItem = OpenAI.Responses.ResponseInputItem;

const ENCRYPTED_REASONING = 'reasoning.encrypted_content';

/**
 * The model-level settings the Responses body needs.
 * @internal
 */
export interface ResponsesSettings {
  /** The model's default model name. */
  model: string;
  /**
   * Whether to ask for `reasoning.encrypted_content`: `true` always, `false` never,
   * `undefined` when the body sends `store: false` or a `reasoning` configuration.
   */
  includeEncryptedReasoning: boolean | undefined;
}

/**
 * The Responses API streaming body for a request. Stateless: the whole history is sent as
 * input items (tool calls as `function_call`, results as `function_call_output`, and the
 * reasoning items of the tool loop in progress as `reasoning` items before the calls they
 * led to).
 * @internal
 * @throws UnsupportedMediaError for an image or file the Responses API cannot take.
 * @param request The provider-neutral request.
 * @param options The call's merged options.
 * @param settings The model's settings.
 * @returns The body for `client.responses.create`.
 */
export function responsesBody(
  request: ChatRequest,
  options: ChatOptions,
  settings: ResponsesSettings,
): ResponseCreateParamsStreaming {
  const extra = options.extra;
  const stateless = extra?.['store'] === false;
  const input: ResponseInputItem[] = [];
  const messages = request.messages;
  const lastUser = lastUserIndex(messages);
  for (let index = 0; index < messages.length; index++) {
    appendInput(input, messages[index], index > lastUser, stateless);
  }
  const body: ResponseCreateParamsStreaming = {
    model: options.model ?? settings.model,
    input,
    stream: true,
  };
  if (request.tools.length > 0) {
    body.tools = request.tools.map((tool) => ({
      type: 'function',
      name: tool.name,
      description: tool.description,
      parameters: tool.inputSchema,
      strict: false,
    }));
  }
  if (options.toolChoice !== undefined) body.tool_choice = toToolChoice(options.toolChoice);
  if (options.responseFormat !== undefined) {
    body.text = { format: toTextFormat(options.responseFormat) };
  }
  if (options.temperature !== undefined) body.temperature = options.temperature;
  if (options.topP !== undefined) body.top_p = options.topP;
  if (options.maxTokens !== undefined) body.max_output_tokens = options.maxTokens;
  if (options.promptCache?.key !== undefined) body.prompt_cache_key = options.promptCache.key;
  const merged = extra === undefined ? body : { ...body, ...extra, stream: true as const };
  const wantEncrypted =
    settings.includeEncryptedReasoning ??
    (stateless || (typeof extra?.['reasoning'] === 'object' && extra['reasoning'] !== null));
  if (wantEncrypted) merged.include = withEncryptedReasoning(merged.include);
  return merged;
}

function appendInput(
  input: ResponseInputItem[],
  message: Message,
  inCurrentTurn: boolean,
  stateless: boolean,
): void {
  switch (message.role) {
    case 'system':
      input.push({ role: 'system', content: message.content });
      return;
    case 'user':
      input.push({ role: 'user', content: responsesUserContent(message) });
      return;
    case 'assistant': {
      if (message.content !== '') input.push({ role: 'assistant', content: message.content });
      const calls = message.toolCalls ?? [];
      // Reasoning matters to the model only within the tool loop of the current user turn
      // (earlier turns' reasoning is dropped by the API), and goes right before the calls it
      // led to: a reasoning item must be followed by its output item.
      if (inCurrentTurn && calls.length > 0 && message.reasoning !== undefined) {
        appendReasoning(input, message.reasoning, stateless);
      }
      for (const call of calls) {
        input.push({
          type: 'function_call',
          call_id: call.id,
          name: call.name,
          arguments: call.arguments,
        });
      }
      return;
    }
    case 'tool':
      input.push({
        type: 'function_call_output',
        call_id: message.toolCallId,
        output: responsesToolOutput(message),
      });
      return;
    default:
      assertNever(message);
  }
}

/**
 * Reasoning parts with an item id become `reasoning` items; parts without one (Anthropic
 * thinking, hand-written history) mean nothing to OpenAI. With `store: false` an id alone
 * cannot be looked up, so only parts with encrypted content are sent.
 */
function appendReasoning(
  input: ResponseInputItem[],
  parts: readonly ReasoningPart[],
  stateless: boolean,
): void {
  for (const part of parts) {
    if (part.id === undefined) continue;
    if (part.encryptedContent === undefined && stateless) continue;
    const item: OpenAI.Responses.ResponseReasoningItem = {
      type: 'reasoning',
      id: part.id,
      // The API requires `summary`, even empty.
      summary: part.text === '' ? [] : [{ type: 'summary_text', text: part.text }],
    };
    if (part.encryptedContent !== undefined) item.encrypted_content = part.encryptedContent;
    input.push(item);
  }
}

function lastUserIndex(messages: readonly Message[]): number {
  for (let index = messages.length - 1; index >= 0; index--) {
    if (messages[index].role === 'user') return index;
  }
  return -1;
}

function withEncryptedReasoning(
  include: ResponseCreateParamsStreaming['include'],
): NonNullable<ResponseCreateParamsStreaming['include']> {
  if (!Array.isArray(include)) return [ENCRYPTED_REASONING];
  return include.includes(ENCRYPTED_REASONING) ? include : [...include, ENCRYPTED_REASONING];
}

function toToolChoice(
  choice: ToolChoice,
): NonNullable<ResponseCreateParamsStreaming['tool_choice']> {
  if (typeof choice === 'string') return choice;
  return { type: 'function', name: choice.name };
}

function toTextFormat(format: ResponseFormat): OpenAI.Responses.ResponseFormatTextConfig {
  switch (format.type) {
    case 'text':
      return { type: 'text' };
    case 'json':
      return { type: 'json_object' };
    case 'json-schema':
      return { type: 'json_schema', ...jsonSchemaFormat(format) };
    default:
      return assertNever(format);
  }
}
