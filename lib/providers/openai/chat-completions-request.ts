import { assertNever } from '../../core/assert-never.js';
import { jsonSchemaFormat } from './json-schema-format.js';
import type OpenAI from 'openai';
import type { ChatOptions, ResponseFormat, ToolChoice } from '../../core/chat-options.js';
import type { ChatRequest } from '../../core/chat-request.js';
import type { Message } from '../../core/message.js';
import type { ToolDefinition } from '../../core/tool-definition.js';
import { chatUserContent, checkChatToolMedia } from './chat-completions-media.js';

type ChatCompletionCreateParamsStreaming = OpenAI.ChatCompletionCreateParamsStreaming;
type ChatCompletionMessageParam = OpenAI.ChatCompletionMessageParam;
type ChatCompletionTool = OpenAI.ChatCompletionTool;
type ChatCompletionToolChoiceOption = OpenAI.ChatCompletionToolChoiceOption;

/** The model-level settings the Chat Completions body needs. */
export interface ChatCompletionsSettings {
  model: string;
  maxTokensField: 'max_completion_tokens' | 'max_tokens';
  includeUsage: boolean;
}

/**
 * The Chat Completions streaming body for a request.
 * @internal
 * @throws UnsupportedMediaError for an image or file Chat Completions cannot take.
 * @param request The provider-neutral request.
 * @param options The call's merged options.
 * @param settings The model's settings.
 * @returns The body for `client.chat.completions.create`.
 */
export function chatCompletionsBody(
  request: ChatRequest,
  options: ChatOptions,
  settings: ChatCompletionsSettings,
): ChatCompletionCreateParamsStreaming {
  const body: ChatCompletionCreateParamsStreaming = {
    model: options.model ?? settings.model,
    messages: request.messages.map(toChatMessage),
    stream: true,
  };
  if (settings.includeUsage) body.stream_options = { include_usage: true };
  if (request.tools.length > 0) body.tools = request.tools.map(toChatTool);
  if (options.toolChoice !== undefined) body.tool_choice = toChatToolChoice(options.toolChoice);
  if (options.responseFormat !== undefined) {
    body.response_format = toChatResponseFormat(options.responseFormat);
  }
  if (options.temperature !== undefined) body.temperature = options.temperature;
  if (options.topP !== undefined) body.top_p = options.topP;
  if (options.maxTokens !== undefined) body[settings.maxTokensField] = options.maxTokens;
  if (options.stop !== undefined) body.stop = options.stop;
  if (options.promptCache?.key !== undefined) body.prompt_cache_key = options.promptCache.key;
  return options.extra === undefined ? body : { ...body, ...options.extra, stream: true };
}

function toChatMessage(message: Message): ChatCompletionMessageParam {
  switch (message.role) {
    case 'system':
      return { role: 'system', content: message.content };
    case 'user':
      return { role: 'user', content: chatUserContent(message) };
    case 'assistant': {
      const calls = message.toolCalls;
      if (calls === undefined || calls.length === 0) {
        return { role: 'assistant', content: message.content };
      }
      return {
        role: 'assistant',
        // The API wants `null`, not '', when an assistant turn is only tool calls.
        content: message.content === '' ? null : message.content,
        tool_calls: calls.map((call) => ({
          id: call.id,
          type: 'function',
          function: { name: call.name, arguments: call.arguments },
        })),
      };
    }
    case 'tool':
      checkChatToolMedia(message);
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
    default:
      return assertNever(message);
  }
}

function toChatTool(tool: ToolDefinition): ChatCompletionTool {
  return {
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
  };
}

function toChatToolChoice(choice: ToolChoice): ChatCompletionToolChoiceOption {
  if (typeof choice === 'string') return choice;
  return { type: 'function', function: { name: choice.name } };
}

function toChatResponseFormat(
  format: ResponseFormat,
): NonNullable<ChatCompletionCreateParamsStreaming['response_format']> {
  switch (format.type) {
    case 'text':
      return { type: 'text' };
    case 'json':
      return { type: 'json_object' };
    case 'json-schema':
      return { type: 'json_schema', json_schema: jsonSchemaFormat(format) };
    default:
      return assertNever(format);
  }
}
