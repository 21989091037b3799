// Synthetic provider streams for cases no recorded fixture holds. Every builder here
// produces the exact JSON payloads the real APIs send, framed like the fixtures.
import { framesFromLines } from './fixtures.js';

const CHAT_BASE = {
  id: 'chatcmpl-synthetic-1',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'gpt-synthetic',
};

/** One Chat Completions chunk with a delta for choice 0. */
export function chatChunk(
  delta: Record<string, unknown>,
  finishReason: string | null = null,
): string {
  return JSON.stringify({
    ...CHAT_BASE,
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  });
}

/** The usage-only last chunk `stream_options.include_usage` asks for. */
export function chatUsageChunk(prompt: number, completion: number): string {
  return JSON.stringify({
    ...CHAT_BASE,
    choices: [],
    usage: {
      prompt_tokens: prompt,
      completion_tokens: completion,
      total_tokens: prompt + completion,
    },
  });
}

/**
 * A Chat Completions stream of one tool call whose arguments arrive in the given pieces.
 * @param argumentPieces The argument fragments, in order.
 * @returns The SSE body (ending with `[DONE]`).
 */
export function syntheticChatToolCallStream(argumentPieces: readonly string[]): string {
  const lines = [
    chatChunk({ role: 'assistant', content: null }),
    chatChunk({
      tool_calls: [
        {
          index: 0,
          id: 'call_split',
          type: 'function',
          function: { name: 'lookup', arguments: '' },
        },
      ],
    }),
    ...argumentPieces.map((piece) =>
      chatChunk({ tool_calls: [{ index: 0, function: { arguments: piece } }] }),
    ),
    chatChunk({}, 'tool_calls'),
    chatUsageChunk(20, 10),
  ];
  return framesFromLines('openai-chat', lines);
}

/** Two parallel tool calls whose fragments interleave by index, as gpt-4o streams them. */
export function syntheticChatParallelToolCalls(): string {
  const call = (index: number, fields: Record<string, unknown>): string =>
    chatChunk({ tool_calls: [{ index, ...fields }] });
  const lines = [
    chatChunk({ role: 'assistant', content: null }),
    call(0, { id: 'call_paris', type: 'function', function: { name: 'getTime', arguments: '' } }),
    call(0, { function: { arguments: '{"city":' } }),
    call(1, { id: 'call_tokyo', type: 'function', function: { name: 'getTime', arguments: '' } }),
    call(1, { function: { arguments: '{"city":"Tokyo"}' } }),
    call(0, { function: { arguments: '"Paris"}' } }),
    chatChunk({}, 'tool_calls'),
    chatUsageChunk(50, 30),
  ];
  return framesFromLines('openai-chat', lines);
}

/** Text, then an error object in the stream (what OpenAI sends when it fails mid-answer). */
export function syntheticChatErrorMidStream(): string {
  return framesFromLines('openai-chat', [
    chatChunk({ role: 'assistant', content: 'Partial ' }),
    chatChunk({ content: 'answer' }),
    JSON.stringify({
      error: {
        message: 'The server had an error while processing your request.',
        type: 'server_error',
        code: null,
      },
    }),
  ]);
}

/** A plain text answer in three deltas. */
export function syntheticChatText(text = 'Hello there!'): string {
  const third = Math.ceil(text.length / 3);
  return framesFromLines('openai-chat', [
    chatChunk({ role: 'assistant', content: text.slice(0, third) }),
    chatChunk({ content: text.slice(third, 2 * third) }),
    chatChunk({ content: text.slice(2 * third) }),
    chatChunk({}, 'stop'),
    chatUsageChunk(9, 3),
  ]);
}

/** A compatible server that sends neither usage nor a finish reason, and no ids. */
export function syntheticChatBareCompatible(): string {
  return framesFromLines('openai-chat', [
    JSON.stringify({
      object: 'chat.completion.chunk',
      choices: [{ index: 0, delta: { content: 'ok' } }],
    }),
    JSON.stringify({
      object: 'chat.completion.chunk',
      choices: [
        {
          index: 0,
          delta: { tool_calls: [{ index: 0, function: { name: 'ping', arguments: '{}' } }] },
        },
      ],
    }),
  ]);
}

/** An Anthropic stream: text, then an `error` event (the API sends `overloaded_error` this way). */
export function syntheticAnthropicErrorMidStream(): string {
  return framesFromLines('anthropic', [
    JSON.stringify({
      type: 'message_start',
      message: {
        id: 'msg_synthetic',
        type: 'message',
        role: 'assistant',
        model: 'claude-synthetic',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 5, output_tokens: 1 },
      },
    }),
    JSON.stringify({
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'text', text: '' },
    }),
    JSON.stringify({
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'text_delta', text: 'Partial' },
    }),
    JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }),
  ]);
}

/** An Anthropic stream with a redacted thinking block, a thinking block and a tool call. */
export function syntheticAnthropicThinkingAndTool(): string {
  return framesFromLines('anthropic', [
    JSON.stringify({
      type: 'message_start',
      message: {
        id: 'msg_think',
        type: 'message',
        role: 'assistant',
        model: 'claude-synthetic',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: {
          input_tokens: 100,
          cache_read_input_tokens: 40,
          cache_creation_input_tokens: 10,
          output_tokens: 1,
        },
      },
    }),
    JSON.stringify({
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix' },
    }),
    JSON.stringify({ type: 'content_block_stop', index: 0 }),
    JSON.stringify({
      type: 'content_block_start',
      index: 1,
      content_block: { type: 'thinking', thinking: '', signature: '' },
    }),
    JSON.stringify({
      type: 'content_block_delta',
      index: 1,
      delta: { type: 'thinking_delta', thinking: 'Need the time.' },
    }),
    JSON.stringify({
      type: 'content_block_delta',
      index: 1,
      delta: { type: 'signature_delta', signature: 'sig-part-1' },
    }),
    JSON.stringify({
      type: 'content_block_delta',
      index: 1,
      delta: { type: 'signature_delta', signature: '-part-2' },
    }),
    JSON.stringify({ type: 'content_block_stop', index: 1 }),
    JSON.stringify({
      type: 'content_block_start',
      index: 2,
      content_block: { type: 'tool_use', id: 'toolu_time', name: 'getTime', input: {} },
    }),
    JSON.stringify({
      type: 'content_block_delta',
      index: 2,
      delta: { type: 'input_json_delta', partial_json: '{"city":' },
    }),
    JSON.stringify({
      type: 'content_block_delta',
      index: 2,
      delta: { type: 'input_json_delta', partial_json: '"Paris"}' },
    }),
    JSON.stringify({ type: 'content_block_stop', index: 2 }),
    JSON.stringify({
      type: 'message_delta',
      delta: { stop_reason: 'tool_use', stop_sequence: null },
      usage: { output_tokens: 42, output_tokens_details: { thinking_tokens: 20 } },
    }),
    JSON.stringify({ type: 'message_stop' }),
  ]);
}

/** A short Anthropic text answer. */
export function syntheticAnthropicText(text = 'Hello there!'): string {
  return framesFromLines('anthropic', [
    JSON.stringify({
      type: 'message_start',
      message: {
        id: 'msg_text',
        type: 'message',
        role: 'assistant',
        model: 'claude-synthetic',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 7, output_tokens: 1 },
      },
    }),
    JSON.stringify({
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'text', text: '' },
    }),
    JSON.stringify({
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'text_delta', text: text.slice(0, 5) },
    }),
    JSON.stringify({
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'text_delta', text: text.slice(5) },
    }),
    JSON.stringify({ type: 'content_block_stop', index: 0 }),
    JSON.stringify({
      type: 'message_delta',
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { output_tokens: 4 },
    }),
    JSON.stringify({ type: 'message_stop' }),
  ]);
}

/** A Responses stream that stops at max_output_tokens (`response.incomplete`). */
export function syntheticResponsesIncomplete(): string {
  const response = {
    id: 'resp_cut',
    object: 'response',
    model: 'gpt-synthetic',
    output: [],
    usage: null,
  };
  return framesFromLines('openai-responses', [
    JSON.stringify({
      type: 'response.created',
      sequence_number: 0,
      response: { ...response, status: 'in_progress' },
    }),
    JSON.stringify({
      type: 'response.output_text.delta',
      sequence_number: 1,
      item_id: 'msg_1',
      output_index: 0,
      content_index: 0,
      delta: 'Once upon',
      logprobs: [],
    }),
    JSON.stringify({
      type: 'response.incomplete',
      sequence_number: 2,
      response: {
        ...response,
        status: 'incomplete',
        incomplete_details: { reason: 'max_output_tokens' },
        usage: {
          input_tokens: 8,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens: 2,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: 10,
        },
      },
    }),
  ]);
}

/** A Responses stream that ends with `response.failed` (no `error` event before it). */
export function syntheticResponsesFailed(): string {
  return framesFromLines('openai-responses', [
    JSON.stringify({
      type: 'response.created',
      sequence_number: 0,
      response: {
        id: 'resp_fail',
        object: 'response',
        model: 'gpt-synthetic',
        status: 'in_progress',
        output: [],
        usage: null,
      },
    }),
    JSON.stringify({
      type: 'response.failed',
      sequence_number: 1,
      response: {
        id: 'resp_fail',
        object: 'response',
        model: 'gpt-synthetic',
        status: 'failed',
        output: [],
        usage: null,
        error: { code: 'server_error', message: 'The model crashed.' },
      },
    }),
  ]);
}
