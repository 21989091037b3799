import type OpenAI from 'openai';
import type { ChatOptions, ResponseFormat, ToolChoice } from '../../core/chat-options.js';
import type { ChatRequest } from '../../core/chat-request.js';
import type { Message } from '../../core/message.js';

type ResponseCreateParamsStreaming = OpenAI.Responses.ResponseCreateParamsStreaming;
type ResponseInputItem = OpenAI.Responses.ResponseInputItem;

/**
 * The Responses API streaming body for a request. Stateless: the whole history is sent as
 * input items (tool calls as `function_call`, results as `function_call_output`).
 * @internal
 * @param request The provider-neutral request.
 * @param options The call's merged options.
 * @param model The model's default model name.
 * @returns The body for `client.responses.create`.
 */
export function responsesBody(
  request: ChatRequest,
  options: ChatOptions,
  model: string,
): ResponseCreateParamsStreaming {
  const input: ResponseInputItem[] = [];
  for (const message of request.messages) appendInput(input, message);
  const body: ResponseCreateParamsStreaming = {
    model: options.model ?? model,
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
  return options.extra === undefined ? body : { ...body, ...options.extra, stream: true };
}

function appendInput(input: ResponseInputItem[], message: Message): void {
  switch (message.role) {
    case 'system':
    case 'user':
      input.push({ role: message.role, content: message.content });
      return;
    case 'assistant':
      if (message.content !== '') input.push({ role: 'assistant', content: message.content });
      for (const call of message.toolCalls ?? []) {
        input.push({
          type: 'function_call',
          call_id: call.id,
          name: call.name,
          arguments: call.arguments,
        });
      }
      return;
    case 'tool':
      input.push({
        type: 'function_call_output',
        call_id: message.toolCallId,
        output: message.content,
      });
      return;
    default:
      assertNever(message);
  }
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
    case 'json-schema': {
      const config: OpenAI.Responses.ResponseFormatTextJSONSchemaConfig = {
        type: 'json_schema',
        name: format.name ?? 'response',
        schema: format.schema,
        strict: format.strict ?? true,
      };
      if (format.description !== undefined) config.description = format.description;
      return config;
    }
    default:
      return assertNever(format);
  }
}

function assertNever(value: never): never {
  throw new TypeError(`Unexpected value: ${JSON.stringify(value)}`);
}
