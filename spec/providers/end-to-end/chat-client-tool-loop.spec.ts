import { lastValueFrom, toArray } from 'rxjs';
import { ChatClient } from '../../../lib/client/chat-client.js';
import { tool } from '../../../lib/tools/tool-fn.js';
import { AnthropicChatModel } from '../../../lib/providers/anthropic/index.js';
import { OpenAiChatModel } from '../../../lib/providers/openai/index.js';
import { anthropicClient, openAiClient } from '../support/clients.js';
import { framesFromLines, responsesRounds } from '../support/fixtures.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';
import {
  chatChunk,
  chatUsageChunk,
  syntheticAnthropicThinkingAndTool,
  syntheticChatText,
} from '../support/synthetic-streams.js';

// Real HTTP on a busy machine: allow more than jest's default 5 s per test.
jest.setTimeout(20_000);

/** A tool that records what it was called with. */
function recordingGetTime(calls: string[]) {
  return tool({
    name: 'getTime',
    description: 'The current time in a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    execute: ({ city }) => {
      calls.push(city);
      return `12:00 in ${city}`;
    },
  });
}

describe('a full tool loop through ChatClient against the loopback server', () => {
  let server: ReplayServer;
  beforeAll(async () => {
    server = await startReplayServer();
  });
  afterAll(() => server.close());

  it('OpenAI Chat Completions: tool call, tool run, answer; ids and results round-trip', async () => {
    const toolRound = framesFromLines('openai-chat', [
      chatChunk({ role: 'assistant', content: null }),
      chatChunk({
        tool_calls: [
          {
            index: 0,
            id: 'call_e2e',
            type: 'function',
            function: { name: 'getTime', arguments: '{"city":' },
          },
        ],
      }),
      chatChunk({ tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] }),
      chatChunk({}, 'tool_calls'),
      chatUsageChunk(30, 10),
    ]);
    server.enqueue(
      { kind: 'sse', body: toolRound },
      { kind: 'sse', body: syntheticChatText('It is noon in Paris.') },
    );
    const calls: string[] = [];
    const model = new OpenAiChatModel({ client: openAiClient(server), model: 'gpt-test' });
    const before = server.requests.length;

    const response = await lastValueFrom(
      ChatClient.create(model)
        .prompt('What time is it in Paris?')
        .tools(recordingGetTime(calls))
        .call()
        .chatResponse(),
    );

    expect(response.text).toBe('It is noon in Paris.');
    expect(calls).toEqual(['Paris']);
    expect(response.metadata.rounds).toBe(2);
    expect(response.usage).toMatchObject({ inputTokens: 39, outputTokens: 13, totalTokens: 52 });
    const sent = server.requests.slice(before);
    expect(sent).toHaveLength(2);
    expect(sent[1].body.messages).toEqual([
      { role: 'user', content: 'What time is it in Paris?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_e2e',
            type: 'function',
            function: { name: 'getTime', arguments: '{"city":"Paris"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_e2e', content: '12:00 in Paris' },
    ]);
  });

  it('Anthropic: thinking blocks and tool calls go back in round two, streamed text arrives', async () => {
    server.enqueue(
      { kind: 'sse', body: syntheticAnthropicThinkingAndTool() },
      {
        kind: 'sse',
        body: framesFromLines('anthropic', [
          JSON.stringify({
            type: 'message_start',
            message: {
              id: 'msg_2',
              type: 'message',
              role: 'assistant',
              model: 'claude-synthetic',
              content: [],
              stop_reason: null,
              stop_sequence: null,
              usage: { input_tokens: 200, output_tokens: 1 },
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
            delta: { type: 'text_delta', text: 'It is noon ' },
          }),
          JSON.stringify({
            type: 'content_block_delta',
            index: 0,
            delta: { type: 'text_delta', text: 'in Paris.' },
          }),
          JSON.stringify({ type: 'content_block_stop', index: 0 }),
          JSON.stringify({
            type: 'message_delta',
            delta: { stop_reason: 'end_turn', stop_sequence: null },
            usage: { output_tokens: 8 },
          }),
          JSON.stringify({ type: 'message_stop' }),
        ]),
      },
    );
    const calls: string[] = [];
    const model = new AnthropicChatModel({
      client: anthropicClient(server),
      model: 'claude-test',
      maxTokens: 1024,
    });
    const before = server.requests.length;

    const deltas = await lastValueFrom(
      ChatClient.builder(model)
        .defaultSystem('Answer briefly.')
        .build()
        .prompt('What time is it in Paris?')
        .tools(recordingGetTime(calls))
        .stream()
        .content()
        .pipe(toArray()),
    );

    expect(deltas.join('')).toBe('It is noon in Paris.');
    expect(calls).toEqual(['Paris']);
    const sent = server.requests.slice(before);
    expect(sent).toHaveLength(2);
    expect(sent[1].body.system).toBe('Answer briefly.');
    expect(sent[1].body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'What time is it in Paris?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix' },
          { type: 'thinking', thinking: 'Need the time.', signature: 'sig-part-1-part-2' },
          { type: 'tool_use', id: 'toolu_time', name: 'getTime', input: { city: 'Paris' } },
        ],
      },
      {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'toolu_time', content: '12:00 in Paris' }],
      },
    ]);
  });

  it('OpenAI Responses: the recorded four-call calculator loop runs its three tools', async () => {
    server.enqueue(
      ...responsesRounds('openai-reasoning-encrypted-content.1.chunks.txt').map((body) => ({
        kind: 'sse' as const,
        body,
      })),
    );
    const operations: string[] = [];
    const calculator = tool({
      name: 'calculator',
      description: 'Adds or multiplies two numbers',
      parameters: {
        type: 'object',
        properties: { a: { type: 'number' }, b: { type: 'number' }, op: { type: 'string' } },
        required: ['a', 'b', 'op'],
      },
      execute: ({ a, b, op }) => {
        operations.push(`${a} ${op} ${b}`);
        return String(op === 'add' ? a + b : a * b);
      },
    });
    const model = new OpenAiChatModel({
      client: openAiClient(server),
      model: 'gpt-5.1-codex-max',
      api: 'responses',
    });
    const before = server.requests.length;

    const response = await lastValueFrom(
      ChatClient.create(model).prompt('(12 + 7) * 3 * 10?').tools(calculator).call().chatResponse(),
    );

    expect(response.text).toBe('The final result is **570**.');
    expect(operations).toEqual(['12 add 7', '19 multiply 3', '57 multiply 10']);
    expect(response.metadata.rounds).toBe(4);
    expect(response.usage).toMatchObject({
      inputTokens: 134 + 221 + 260 + 299,
      outputTokens: 28 + 26 + 26 + 12,
      totalTokens: 162 + 247 + 286 + 311,
    });
    const sent = server.requests.slice(before);
    expect(sent).toHaveLength(4);
    expect(sent[3].body.input.slice(-2)).toEqual([
      {
        type: 'function_call',
        call_id: 'call_Zl5vIMnD7dVAjgU6FkhmiCZh',
        name: 'calculator',
        arguments: '{"a":57,"b":10,"op":"multiply"}',
      },
      { type: 'function_call_output', call_id: 'call_Zl5vIMnD7dVAjgU6FkhmiCZh', output: '570' },
    ]);
  });
});
