import { lastValueFrom } from 'rxjs';
import { aggregate } from '../../lib/core/aggregate.js';
import type { ChatOptions } from '../../lib/core/chat-options.js';
import { ChatRequest } from '../../lib/core/chat-request.js';
import type { AssistantMessage, Message } from '../../lib/core/message.js';
import { InvalidOptionsError } from '../../lib/errors/invalid-options-error.js';
import { AnthropicChatModel } from '../../lib/providers/anthropic/index.js';
import { OpenAiChatModel, type OpenAiChatModelOptions } from '../../lib/providers/openai/index.js';
import { anthropicClient, openAiClient } from './support/clients.js';
import { responsesRounds, sseBody } from './support/fixtures.js';
import { startReplayServer, type ReplayServer, type WireJson } from './support/replay-server.js';
import { syntheticChatText } from './support/synthetic-streams.js';

// Real HTTP on a busy machine: allow more than jest's default 5 s per test.
jest.setTimeout(20_000);

const ENCRYPTED = 'gAAAAABpPDIVOKrsHNZ0-encrypted';

const USER: Message = { role: 'user', content: 'What time is it in Paris?' };
const CALL = { id: 'call_paris', name: 'getTime', arguments: '{"city":"Paris"}' };
const TOOL_RESULT: Message = {
  role: 'tool',
  toolCallId: 'call_paris',
  name: 'getTime',
  content: '12:00 in Paris',
};

/** Round 1's assistant message as aggregate() builds it from a reasoning model's stream. */
function toolTurn(overrides: Partial<AssistantMessage> = {}): AssistantMessage {
  return {
    role: 'assistant',
    content: '',
    toolCalls: [CALL],
    reasoning: [{ text: '**Looking up the time**', id: 'rs_1', encryptedContent: ENCRYPTED }],
    ...overrides,
  };
}

const FUNCTION_CALL = {
  type: 'function_call',
  call_id: 'call_paris',
  name: 'getTime',
  arguments: '{"city":"Paris"}',
};
const FUNCTION_CALL_OUTPUT = {
  type: 'function_call_output',
  call_id: 'call_paris',
  output: '12:00 in Paris',
};
const REASONING_ITEM = {
  type: 'reasoning',
  id: 'rs_1',
  summary: [{ type: 'summary_text', text: '**Looking up the time**' }],
  encrypted_content: ENCRYPTED,
};

describe('OpenAiChatModel (responses): reasoning items sent back', () => {
  let server: ReplayServer;
  beforeAll(async () => {
    server = await startReplayServer();
  });
  afterAll(() => server.close());

  /** The JSON body the SDK sent for one call with these messages and options. */
  async function sentBody(
    messages: Message[],
    options: ChatOptions = {},
    modelOptions: Partial<OpenAiChatModelOptions> = {},
  ): Promise<WireJson> {
    server.enqueue({ kind: 'sse', body: responsesRounds('azure-tool-call.1.chunks.txt')[0] });
    const model = new OpenAiChatModel({
      client: openAiClient(server),
      model: 'gpt-test',
      api: 'responses',
      ...modelOptions,
    });
    await lastValueFrom(model.stream(ChatRequest.create({ messages, options })).pipe(aggregate()));
    const sent = server.requests[server.requests.length - 1];
    expect(sent.path).toBe('/v1/responses');
    return sent.body;
  }

  it('round 2 of a tool loop: the reasoning item, with id and encrypted content, right before its function call', async () => {
    const body = await sentBody([USER, toolTurn(), TOOL_RESULT], {
      extra: { store: false, reasoning: { effort: 'high', summary: 'detailed' } },
    });
    expect(body.input).toEqual([
      { role: 'user', content: 'What time is it in Paris?' },
      REASONING_ITEM,
      FUNCTION_CALL,
      FUNCTION_CALL_OUTPUT,
    ]);
    expect(body.store).toBe(false);
    expect(body.include).toEqual(['reasoning.encrypted_content']);
  });

  it('text, then every reasoning item with an id, then the calls; parts of other providers are left out', async () => {
    const turn = toolTurn({
      content: 'Let me check.',
      toolCalls: [CALL, { id: 'call_tokyo', name: 'getTime', arguments: '{"city":"Tokyo"}' }],
      reasoning: [
        { text: 'Anthropic thinking', signature: 'EqQBCgIYAh' },
        { text: '', redactedData: 'EmwKAhgBEgy3' },
        { text: '', id: 'rs_1', encryptedContent: ENCRYPTED },
        { text: 'Stored reasoning', id: 'rs_2' },
      ],
    });
    const body = await sentBody([USER, turn]);
    expect(body.input).toEqual([
      { role: 'user', content: 'What time is it in Paris?' },
      { role: 'assistant', content: 'Let me check.' },
      // The API wants `summary` even when it is empty.
      { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: ENCRYPTED },
      {
        type: 'reasoning',
        id: 'rs_2',
        summary: [{ type: 'summary_text', text: 'Stored reasoning' }],
      },
      FUNCTION_CALL,
      {
        type: 'function_call',
        call_id: 'call_tokyo',
        name: 'getTime',
        arguments: '{"city":"Tokyo"}',
      },
    ]);
  });

  it('every round of the current tool loop keeps its reasoning items; earlier user turns do not', async () => {
    const earlierTurn: Message[] = [
      { role: 'user', content: 'And in Rome?' },
      toolTurn({
        toolCalls: [{ id: 'call_rome', name: 'getTime', arguments: '{"city":"Rome"}' }],
        reasoning: [{ text: 'old', id: 'rs_old', encryptedContent: 'old-blob' }],
      }),
      { role: 'tool', toolCallId: 'call_rome', name: 'getTime', content: '12:00 in Rome' },
      {
        role: 'assistant',
        content: 'Noon in Rome.',
        reasoning: [{ text: 'final', id: 'rs_final', encryptedContent: 'final-blob' }],
      },
    ];
    const secondRound = toolTurn({
      toolCalls: [{ id: 'call_tokyo', name: 'getTime', arguments: '{"city":"Tokyo"}' }],
      reasoning: [{ text: '', id: 'rs_3', encryptedContent: 'blob-3' }],
    });
    const body = await sentBody([
      ...earlierTurn,
      USER,
      toolTurn(),
      TOOL_RESULT,
      secondRound,
      { role: 'tool', toolCallId: 'call_tokyo', name: 'getTime', content: '20:00 in Tokyo' },
    ]);
    const reasoningIds = (body.input as WireJson[])
      .filter((item) => item.type === 'reasoning')
      .map((item) => item.id as string);
    expect(reasoningIds).toEqual(['rs_1', 'rs_3']);
    // The earlier user turn goes back without its reasoning (the API drops it anyway).
    expect(body.input).toEqual([
      { role: 'user', content: 'And in Rome?' },
      {
        type: 'function_call',
        call_id: 'call_rome',
        name: 'getTime',
        arguments: '{"city":"Rome"}',
      },
      { type: 'function_call_output', call_id: 'call_rome', output: '12:00 in Rome' },
      { role: 'assistant', content: 'Noon in Rome.' },
      { role: 'user', content: 'What time is it in Paris?' },
      REASONING_ITEM,
      FUNCTION_CALL,
      FUNCTION_CALL_OUTPUT,
      { type: 'reasoning', id: 'rs_3', summary: [], encrypted_content: 'blob-3' },
      {
        type: 'function_call',
        call_id: 'call_tokyo',
        name: 'getTime',
        arguments: '{"city":"Tokyo"}',
      },
      { type: 'function_call_output', call_id: 'call_tokyo', output: '20:00 in Tokyo' },
    ]);
  });

  it('an answer without tool calls is sent as text only, its reasoning left out', async () => {
    const body = await sentBody([
      USER,
      {
        role: 'assistant',
        content: 'Noon.',
        reasoning: [{ text: 'x', id: 'rs_9', encryptedContent: 'e' }],
      },
    ]);
    expect(body.input).toEqual([
      { role: 'user', content: 'What time is it in Paris?' },
      { role: 'assistant', content: 'Noon.' },
    ]);
  });

  it('store: false: an item with only an id (nothing to look up) is left out, an encrypted one goes', async () => {
    const turn = toolTurn({
      reasoning: [
        { text: 'stored only', id: 'rs_stored' },
        { text: '', id: 'rs_1', encryptedContent: ENCRYPTED },
      ],
    });
    const body = await sentBody([USER, turn, TOOL_RESULT], { extra: { store: false } });
    expect(body.input).toEqual([
      { role: 'user', content: 'What time is it in Paris?' },
      { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: ENCRYPTED },
      FUNCTION_CALL,
      FUNCTION_CALL_OUTPUT,
    ]);
  });

  describe('include: reasoning.encrypted_content', () => {
    it('is not asked for by default (models without reasoning reject it)', async () => {
      const body = await sentBody([USER]);
      expect(body).not.toHaveProperty('include');
    });

    it('is asked for by default when the call sends store: false', async () => {
      const body = await sentBody([USER], { extra: { store: false } });
      expect(body.include).toEqual(['reasoning.encrypted_content']);
    });

    it('is asked for by default when the call configures reasoning (constructor defaults too)', async () => {
      const body = await sentBody(
        [USER],
        {},
        {
          options: { extra: { reasoning: { effort: 'low' } } },
        },
      );
      expect(body.reasoning).toEqual({ effort: 'low' });
      expect(body.include).toEqual(['reasoning.encrypted_content']);
    });

    it('includeEncryptedReasoning: true asks for it on every call', async () => {
      const body = await sentBody([USER], {}, { includeEncryptedReasoning: true });
      expect(body.include).toEqual(['reasoning.encrypted_content']);
    });

    it('includeEncryptedReasoning: false never adds it, even with store: false', async () => {
      const body = await sentBody(
        [USER],
        { extra: { store: false } },
        {
          includeEncryptedReasoning: false,
        },
      );
      expect(body).not.toHaveProperty('include');
    });

    it("joins the caller's own include list, once", async () => {
      const own = await sentBody(
        [USER],
        { extra: { include: ['file_search_call.results'] } },
        {
          includeEncryptedReasoning: true,
        },
      );
      expect(own.include).toEqual(['file_search_call.results', 'reasoning.encrypted_content']);
      const twice = await sentBody([USER], {
        extra: { include: ['reasoning.encrypted_content'], store: false },
      });
      expect(twice.include).toEqual(['reasoning.encrypted_content']);
    });

    it('a value that is not a boolean is an InvalidOptionsError naming the option', () => {
      const create = () =>
        new OpenAiChatModel({
          client: openAiClient(server),
          model: 'gpt-test',
          api: 'responses',
          includeEncryptedReasoning: 'yes' as unknown as boolean,
        });
      expect(create).toThrow(InvalidOptionsError);
      expect(create).toThrow(/includeEncryptedReasoning/);
    });
  });
});

describe('the other adapters ignore the OpenAI reasoning fields', () => {
  let server: ReplayServer;
  beforeAll(async () => {
    server = await startReplayServer();
  });
  afterAll(() => server.close());

  const history: Message[] = [
    USER,
    toolTurn({
      reasoning: [
        { text: 'OpenAI summary', id: 'rs_1', encryptedContent: ENCRYPTED },
        { text: 'Unsigned thinking' },
        { text: 'Signed thinking', signature: 'EqQBCgIYAh' },
        { text: '', redactedData: 'EmwKAhgBEgy3' },
      ],
    }),
    TOOL_RESULT,
  ];

  it('Anthropic: signed and redacted blocks go back as today; OpenAI items and unsigned text do not', async () => {
    server.enqueue({ kind: 'sse', body: sseBody('anthropic', 'sdk-basic_response.sse') });
    const model = new AnthropicChatModel({ client: anthropicClient(server), model: 'claude-test' });
    await lastValueFrom(model.stream(ChatRequest.create({ messages: history })).pipe(aggregate()));
    const sent = server.requests[server.requests.length - 1];
    expect(sent.body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'What time is it in Paris?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'Signed thinking', signature: 'EqQBCgIYAh' },
          { type: 'redacted_thinking', data: 'EmwKAhgBEgy3' },
          { type: 'tool_use', id: 'call_paris', name: 'getTime', input: { city: 'Paris' } },
        ],
      },
      {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'call_paris', content: '12:00 in Paris' }],
      },
    ]);
  });

  it('Chat Completions: no reasoning at all in the messages', async () => {
    server.enqueue({ kind: 'sse', body: syntheticChatText('Noon.') });
    const model = new OpenAiChatModel({ client: openAiClient(server), model: 'gpt-test' });
    await lastValueFrom(model.stream(ChatRequest.create({ messages: history })).pipe(aggregate()));
    const sent = server.requests[server.requests.length - 1];
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.body.messages).toEqual([
      { role: 'user', content: 'What time is it in Paris?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_paris',
            type: 'function',
            function: { name: 'getTime', arguments: '{"city":"Paris"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_paris', content: '12:00 in Paris' },
    ]);
  });
});
