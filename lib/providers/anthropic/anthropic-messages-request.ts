import { assertNever } from '../../core/assert-never.js';
import type Anthropic from '@anthropic-ai/sdk';
import type { ChatOptions, ToolChoice } from '../../core/chat-options.js';
import type { ChatRequest } from '../../core/chat-request.js';
import type { AssistantMessage, Message } from '../../core/message.js';
import { anthropicMediaBlocks } from './anthropic-media.js';
import { applyAnthropicPromptCache } from './anthropic-prompt-cache.js';

type MessageCreateParamsStreaming = Anthropic.MessageCreateParamsStreaming;
type ContentBlockParam = Anthropic.ContentBlockParam;

interface ApiMessage {
  role: 'user' | 'assistant';
  content: ContentBlockParam[];
}

/** The model-level settings the Messages body needs. */
export interface AnthropicMessagesSettings {
  model: string;
  maxTokens: number;
}

/**
 * The Messages API streaming body for a request: system messages joined into `system`,
 * tool results as user `tool_result` blocks, consecutive same-role messages merged (the
 * API wants user and assistant turns to alternate), reasoning blocks sent back as
 * `thinking`/`redacted_thinking` blocks before the text and tool calls of their turn,
 * images and documents before the text they come with (as Anthropic recommends), and the
 * prompt cache breakpoints the request asks for.
 * @internal
 * @throws UnsupportedMediaError for an image or file the Messages API cannot take.
 * @param request The provider-neutral request.
 * @param options The call's merged options.
 * @param settings The model's settings.
 * @returns The body for `client.messages.create`.
 */
export function anthropicMessagesBody(
  request: ChatRequest,
  options: ChatOptions,
  settings: AnthropicMessagesSettings,
): MessageCreateParamsStreaming {
  const system: string[] = [];
  const messages: ApiMessage[] = [];
  for (const message of request.messages) {
    if (message.role === 'system') {
      system.push(message.content);
      continue;
    }
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const blocks = toBlocks(message);
    const last = messages[messages.length - 1];
    if (last !== undefined && last.role === role) last.content.push(...blocks);
    else messages.push({ role, content: blocks });
  }
  const body: MessageCreateParamsStreaming = {
    model: options.model ?? settings.model,
    max_tokens: options.maxTokens ?? settings.maxTokens,
    messages,
    stream: true,
  };
  if (system.length > 0) body.system = system.join('\n\n');
  if (request.tools.length > 0) {
    body.tools = request.tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      input_schema: tool.inputSchema as Anthropic.Tool.InputSchema,
    }));
  }
  if (options.toolChoice !== undefined) body.tool_choice = toToolChoice(options.toolChoice);
  if (options.responseFormat?.type === 'json-schema') {
    body.output_config = { format: { type: 'json_schema', schema: options.responseFormat.schema } };
  }
  if (options.stop !== undefined) body.stop_sequences = options.stop;
  if (options.promptCache !== undefined) applyAnthropicPromptCache(body, options.promptCache);
  // SDK 1.x no longer types the sampling fields (newer models reject them); older models and
  // SDK 0.x accept them, so they are sent when the caller sets them.
  const sampling: { temperature?: number; top_p?: number } = {};
  if (options.temperature !== undefined) sampling.temperature = options.temperature;
  if (options.topP !== undefined) sampling.top_p = options.topP;
  return { ...body, ...sampling, ...options.extra, stream: true };
}

function toBlocks(message: Exclude<Message, { role: 'system' }>): ContentBlockParam[] {
  switch (message.role) {
    case 'user': {
      const media = message.media ?? [];
      if (media.length === 0) return [{ type: 'text', text: message.content }];
      const blocks: ContentBlockParam[] = anthropicMediaBlocks(media, 'user');
      // The API rejects empty text blocks.
      if (message.content !== '') blocks.push({ type: 'text', text: message.content });
      return blocks;
    }
    case 'tool': {
      const media = message.media ?? [];
      const block: Anthropic.ToolResultBlockParam = {
        type: 'tool_result',
        tool_use_id: message.toolCallId,
        content:
          media.length === 0
            ? message.content
            : [
                ...(message.content === ''
                  ? []
                  : [{ type: 'text' as const, text: message.content }]),
                ...anthropicMediaBlocks(media, 'tool'),
              ],
      };
      if (message.isError === true) block.is_error = true;
      return [block];
    }
    case 'assistant':
      return assistantBlocks(message);
    default:
      return assertNever(message);
  }
}

function assistantBlocks(message: AssistantMessage): ContentBlockParam[] {
  const blocks: ContentBlockParam[] = [];
  for (const part of message.reasoning ?? []) {
    if (part.redactedData !== undefined) {
      blocks.push({ type: 'redacted_thinking', data: part.redactedData });
    } else if (part.signature !== undefined) {
      blocks.push({ type: 'thinking', thinking: part.text, signature: part.signature });
    }
    // A thinking block without a signature cannot be verified by the API; it is dropped.
  }
  // The API rejects empty text blocks.
  if (message.content !== '') blocks.push({ type: 'text', text: message.content });
  for (const call of message.toolCalls ?? []) {
    blocks.push({
      type: 'tool_use',
      id: call.id,
      name: call.name,
      input: parseInput(call.arguments),
    });
  }
  return blocks;
}

/**
 * Tool input goes back as an object. Arguments the model cut short (max_tokens) are not
 * valid JSON; they are sent as `{}` so the conversation can go on (the tool loop has
 * already answered that call with an error result).
 */
function parseInput(text: string): unknown {
  if (text.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}

function toToolChoice(choice: ToolChoice): Anthropic.ToolChoice {
  switch (choice) {
    case 'auto':
      return { type: 'auto' };
    case 'none':
      return { type: 'none' };
    case 'required':
      return { type: 'any' };
    default:
      return { type: 'tool', name: choice.name };
  }
}
