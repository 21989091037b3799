import { assertNever } from '../../core/assert-never.js';
import type {
  JSONValue,
  LanguageModelV3FunctionTool,
  LanguageModelV3Message,
  LanguageModelV3Prompt,
  LanguageModelV3ToolChoice,
  LanguageModelV3ToolResultOutput,
  LanguageModelV3ToolResultPart,
  SharedV3ProviderOptions,
} from '@ai-sdk/provider';
import type { ChatOptions, ResponseFormat, ToolChoice } from '../../core/chat-options.js';
import type { ChatRequest } from '../../core/chat-request.js';
import type {
  AssistantMessage,
  Message,
  ProviderMetadata,
  ToolMessage,
} from '../../core/message.js';
import type { AiSdkCallOptions } from './ai-sdk-language-model.js';
import { aiSdkFilePart, aiSdkToolMediaOutput, type AiSdkMediaTarget } from './ai-sdk-media.js';
import { applyPromptCache, mergeProviderOptions } from './ai-sdk-prompt-cache.js';

type AssistantPart = Extract<LanguageModelV3Message, { role: 'assistant' }>['content'][number];
type UserPart = Extract<LanguageModelV3Message, { role: 'user' }>['content'][number];

/**
 * The AI SDK call options of one request: the prompt (system, user, assistant with its
 * reasoning and tool calls, tool results), the tools, the tool choice, the response format
 * (JSON schema mode as the spec's `{ type: 'json', schema }`), the sampling options, then
 * `options.extra` spread over them (so `extra: { providerOptions: { google: {...} }, topK: 40 }`
 * reaches the provider as is). The abort signal is added by the caller.
 * @internal
 * @param request The request.
 * @param options The request's options merged over the model's defaults.
 * @param target The model, for its media support.
 * @returns The call options without the abort signal.
 * @throws UnsupportedMediaError for an image or file the model cannot take.
 */
export function aiSdkCallOptions(
  request: ChatRequest,
  options: ChatOptions,
  target: AiSdkMediaTarget,
): AiSdkCallOptions {
  const call: AiSdkCallOptions = { prompt: aiSdkPrompt(request.messages, target) };
  if (request.tools.length > 0) {
    call.tools = request.tools.map((tool): LanguageModelV3FunctionTool => ({
      type: 'function',
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema,
    }));
  }
  if (options.toolChoice !== undefined) call.toolChoice = aiSdkToolChoice(options.toolChoice);
  if (options.responseFormat !== undefined) {
    call.responseFormat = aiSdkResponseFormat(options.responseFormat);
  }
  if (options.maxTokens !== undefined) call.maxOutputTokens = options.maxTokens;
  if (options.temperature !== undefined) call.temperature = options.temperature;
  if (options.topP !== undefined) call.topP = options.topP;
  if (options.stop !== undefined) call.stopSequences = [...options.stop];
  if (options.promptCache !== undefined) applyPromptCache(call, options.promptCache);
  if (options.extra === undefined) return call;
  const merged: AiSdkCallOptions = { ...call, ...options.extra };
  const extraProviderOptions = options.extra['providerOptions'] as
    SharedV3ProviderOptions | undefined;
  if (call.providerOptions !== undefined && extraProviderOptions !== undefined) {
    merged.providerOptions = mergeProviderOptions(call.providerOptions, extraProviderOptions);
  }
  return merged;
}

/**
 * The AI SDK prompt of a message list; consecutive tool results become one `tool` message.
 * @internal
 * @param messages The conversation.
 * @param target The model, for its media support.
 * @returns The prompt.
 */
export function aiSdkPrompt(
  messages: readonly Message[],
  target: AiSdkMediaTarget,
): LanguageModelV3Prompt {
  const prompt: LanguageModelV3Prompt = [];
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        prompt.push({ role: 'system', content: message.content });
        break;
      case 'user': {
        const media = message.media ?? [];
        const content: UserPart[] =
          media.length > 0 && message.content === ''
            ? []
            : [{ type: 'text', text: message.content }];
        for (const part of media) content.push(aiSdkFilePart(part, target));
        prompt.push({ role: 'user', content });
        break;
      }
      case 'assistant':
        prompt.push({ role: 'assistant', content: assistantParts(message) });
        break;
      case 'tool': {
        const part: LanguageModelV3ToolResultPart = {
          type: 'tool-result',
          toolCallId: message.toolCallId,
          toolName: message.name,
          output: toolOutput(message, target),
        };
        const last = prompt[prompt.length - 1];
        if (last?.role === 'tool') last.content.push(part);
        else prompt.push({ role: 'tool', content: [part] });
        break;
      }
      default:
        return assertNever(message);
    }
  }
  return prompt;
}

/** A tool result's output; with media, `content` (an error keeps its text first). */
function toolOutput(
  message: ToolMessage,
  target: AiSdkMediaTarget,
): LanguageModelV3ToolResultOutput {
  if (message.media !== undefined && message.media.length > 0) {
    return aiSdkToolMediaOutput(message, target);
  }
  return message.isError === true
    ? { type: 'error-text', value: message.content }
    : { type: 'text', value: message.content };
}

function assistantParts(message: AssistantMessage): AssistantPart[] {
  const parts: AssistantPart[] = [];
  for (const reasoning of message.reasoning ?? []) {
    parts.push(
      withOptions({ type: 'reasoning', text: reasoning.text }, reasoning.providerMetadata),
    );
  }
  if (message.content !== '') parts.push({ type: 'text', text: message.content });
  for (const call of message.toolCalls ?? []) {
    parts.push(
      withOptions(
        {
          type: 'tool-call',
          toolCallId: call.id,
          toolName: call.name,
          input: parseArguments(call.arguments),
        },
        call.providerMetadata,
      ),
    );
  }
  return parts;
}

/** Sends a part's provider metadata back as its provider options (how the AI SDK does it). */
function withOptions<T extends AssistantPart>(part: T, metadata: ProviderMetadata | undefined): T {
  if (metadata !== undefined) part.providerOptions = metadata as SharedV3ProviderOptions;
  return part;
}

/** The arguments as a value; text that is not JSON is sent as the string the model wrote. */
function parseArguments(text: string): JSONValue {
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as JSONValue;
  } catch {
    return text;
  }
}

function aiSdkToolChoice(choice: ToolChoice): LanguageModelV3ToolChoice {
  if (typeof choice === 'string') return { type: choice };
  return { type: 'tool', toolName: choice.name };
}

type AiSdkResponseFormat = NonNullable<AiSdkCallOptions['responseFormat']>;

function aiSdkResponseFormat(format: ResponseFormat): AiSdkResponseFormat {
  switch (format.type) {
    case 'text':
      return { type: 'text' };
    case 'json':
      return { type: 'json' };
    case 'json-schema': {
      const result: AiSdkResponseFormat = { type: 'json', schema: format.schema };
      if (format.name !== undefined) result.name = format.name;
      if (format.description !== undefined) result.description = format.description;
      return result;
    }
    default:
      return assertNever(format);
  }
}
