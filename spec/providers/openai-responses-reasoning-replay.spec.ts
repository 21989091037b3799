import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { from, lastValueFrom } from 'rxjs';
import { aggregate } from '../../lib/core/aggregate.js';
import type { ChatChunk } from '../../lib/core/chat-chunk.js';
import { ChatRequest } from '../../lib/core/chat-request.js';
import { ResponseAssembler } from '../../lib/core/response-assembler.js';
import { OpenAiChatModel } from '../../lib/providers/openai/index.js';
import { collect, openAiClient } from './support/clients.js';
import { FIXTURES_DIR, framesFromLines, responsesRounds } from './support/fixtures.js';
import { startReplayServer, type ReplayServer } from './support/replay-server.js';

// Real HTTP on a busy machine: allow more than jest's default 5 s per test.
jest.setTimeout(20_000);

const FIXTURE = 'openai-reasoning-encrypted-content.1.chunks.txt';

interface WireItem {
  id: string;
  type: string;
  encrypted_content?: string;
  summary?: { text: string }[];
}

/** The reasoning item of the recorded `response.output_item.added` / `.done` events. */
function recordedReasoningItem(event: 'added' | 'done'): WireItem {
  const lines = readFileSync(join(FIXTURES_DIR, 'openai-responses', FIXTURE), 'utf8').split('\n');
  for (const line of lines) {
    if (line.trim() === '') continue;
    const payload = JSON.parse(line) as { type: string; item?: WireItem };
    if (payload.type === `response.output_item.${event}` && payload.item?.type === 'reasoning') {
      return payload.item;
    }
  }
  throw new Error(`no reasoning item in ${FIXTURE}`);
}

/** One Responses SSE payload with a running sequence number. */
function events(...payloads: Record<string, unknown>[]): string {
  return framesFromLines(
    'openai-responses',
    payloads.map((payload, index) => JSON.stringify({ ...payload, sequence_number: index })),
  );
}

const RESPONSE = { id: 'resp_syn', object: 'response', model: 'gpt-synthetic', output: [] };
const USAGE = {
  input_tokens: 10,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens: 20,
  output_tokens_details: { reasoning_tokens: 12 },
  total_tokens: 30,
};

/**
 * A synthetic Responses stream in the API's event format: a reasoning item with two summary
 * parts and no encrypted content (a call made without `include`), then a reasoning item with
 * an empty summary and encrypted content, then text.
 */
function twoReasoningItemsStream(): string {
  const first = { id: 'rs_syn_1', type: 'reasoning', summary: [] };
  const second = { id: 'rs_syn_2', type: 'reasoning', summary: [], encrypted_content: 'gAAAA-2' };
  const part = (summaryIndex: number) => ({
    type: 'response.reasoning_summary_part.added',
    item_id: 'rs_syn_1',
    output_index: 0,
    summary_index: summaryIndex,
    part: { type: 'summary_text', text: '' },
  });
  const delta = (summaryIndex: number, text: string) => ({
    type: 'response.reasoning_summary_text.delta',
    item_id: 'rs_syn_1',
    output_index: 0,
    summary_index: summaryIndex,
    delta: text,
  });
  return events(
    { type: 'response.created', response: { ...RESPONSE, status: 'in_progress', usage: null } },
    { type: 'response.output_item.added', output_index: 0, item: first },
    part(0),
    delta(0, '**Plan**'),
    part(1),
    delta(1, 'Check twice.'),
    {
      type: 'response.output_item.done',
      output_index: 0,
      item: {
        ...first,
        summary: [
          { type: 'summary_text', text: '**Plan**' },
          { type: 'summary_text', text: 'Check twice.' },
        ],
      },
    },
    { type: 'response.output_item.added', output_index: 1, item: second },
    { type: 'response.output_item.done', output_index: 1, item: second },
    {
      type: 'response.output_item.added',
      output_index: 2,
      item: {
        id: 'msg_syn',
        type: 'message',
        role: 'assistant',
        status: 'in_progress',
        content: [],
      },
    },
    {
      type: 'response.output_text.delta',
      item_id: 'msg_syn',
      output_index: 2,
      content_index: 0,
      delta: 'Done.',
      logprobs: [],
    },
    { type: 'response.completed', response: { ...RESPONSE, status: 'completed', usage: USAGE } },
  );
}

describe('OpenAiChatModel (responses): reasoning items as `reasoning` chunks', () => {
  let server: ReplayServer;
  let model: OpenAiChatModel;
  beforeAll(async () => {
    server = await startReplayServer();
    model = new OpenAiChatModel({
      client: openAiClient(server),
      model: 'gpt-test',
      api: 'responses',
    });
  });
  afterAll(() => server.close());

  const request = ChatRequest.create({ messages: [{ role: 'user', content: 'Hi' }] });

  it('recorded stream: one `reasoning` chunk with the item id and its final encrypted content', async () => {
    const [body] = responsesRounds(FIXTURE);
    server.enqueue({ kind: 'sse', body });
    const chunks = await collect(model.stream(request));

    const done = recordedReasoningItem('done');
    const added = recordedReasoningItem('added');
    // The fixture's added item carries a different (partial) blob: the done one must win.
    expect(added.encrypted_content).not.toBe(done.encrypted_content);
    const summary = done.summary?.map((part) => part.text).join('\n\n') ?? '';

    const reasoning = chunks.filter((chunk) => chunk.type === 'reasoning');
    expect(reasoning).toEqual([
      {
        type: 'reasoning',
        text: summary,
        id: 'rs_01830d662ab3856501693c321405c88190be3ab04d5782d5f9',
        encryptedContent: done.encrypted_content,
      },
    ]);
    // The summary text is still streamed as deltas, before the complete block.
    const deltas = chunks.filter((chunk) => chunk.type === 'reasoning-delta');
    expect(deltas.map((chunk) => chunk.text).join('')).toBe(summary);
    const types = chunks.map((chunk) => chunk.type);
    expect(types.lastIndexOf('reasoning-delta')).toBeLessThan(types.indexOf('reasoning'));
    // The reasoning item ends before the function call it led to starts.
    expect(types.indexOf('reasoning')).toBeLessThan(types.indexOf('tool-call-delta'));

    // aggregate() keeps the part on the assistant message, next to the tool call.
    const response = await lastValueFrom(from(chunks).pipe(aggregate()));
    expect(response.message.reasoning).toEqual([
      {
        text: summary,
        id: 'rs_01830d662ab3856501693c321405c88190be3ab04d5782d5f9',
        encryptedContent: done.encrypted_content,
      },
    ]);
    expect(response.message.toolCalls?.map((call) => call.id)).toEqual([
      'call_AB6AaRZ1FYZB2RwS6A5vbdqn',
    ]);
  });

  it('synthetic stream: one chunk per item; no encrypted content unless sent; empty summaries', async () => {
    server.enqueue({ kind: 'sse', body: twoReasoningItemsStream() });
    const chunks = await collect(model.stream(request));

    expect(chunks.filter((chunk) => chunk.type.startsWith('reasoning'))).toEqual([
      { type: 'reasoning-delta', text: '**Plan**' },
      { type: 'reasoning-delta', text: '\n\n' },
      { type: 'reasoning-delta', text: 'Check twice.' },
      { type: 'reasoning', text: '**Plan**\n\nCheck twice.', id: 'rs_syn_1' },
      { type: 'reasoning', text: '', id: 'rs_syn_2', encryptedContent: 'gAAAA-2' },
    ]);
    const response = await lastValueFrom(from(chunks).pipe(aggregate()));
    expect(response.text).toBe('Done.');
    expect(response.reasoning).toBe('**Plan**\n\nCheck twice.');
    expect(response.message.reasoning).toEqual([
      { text: '**Plan**\n\nCheck twice.', id: 'rs_syn_1' },
      { text: '', id: 'rs_syn_2', encryptedContent: 'gAAAA-2' },
    ]);
  });
});

describe('ResponseAssembler: reasoning parts keep the provider fields', () => {
  it('keeps id and encryptedContent next to signature and redactedData, in order', () => {
    const chunks: ChatChunk[] = [
      { type: 'reasoning', text: 'a', signature: 'sig' },
      { type: 'reasoning', text: '', redactedData: 'opaque' },
      { type: 'reasoning', text: 'b', id: 'rs_1', encryptedContent: 'enc' },
      { type: 'reasoning', text: 'c', id: 'rs_2' },
      { type: 'finish', reason: 'stop' },
    ];
    const assembler = new ResponseAssembler();
    for (const chunk of chunks) assembler.add(chunk);
    expect(assembler.build().message.reasoning).toEqual([
      { text: 'a', signature: 'sig' },
      { text: '', redactedData: 'opaque' },
      { text: 'b', id: 'rs_1', encryptedContent: 'enc' },
      { text: 'c', id: 'rs_2' },
    ]);
  });

  it('copies the parts: changing a chunk afterwards does not change the built message', () => {
    const chunk: ChatChunk = { type: 'reasoning', text: 'b', id: 'rs_1', encryptedContent: 'enc' };
    const assembler = new ResponseAssembler().add(chunk);
    chunk.encryptedContent = 'changed';
    expect(assembler.build().message.reasoning).toEqual([
      { text: 'b', id: 'rs_1', encryptedContent: 'enc' },
    ]);
  });

  it('a retry drops the reasoning parts of the rejected attempt', () => {
    const assembler = new ResponseAssembler()
      .add({ type: 'reasoning', text: 'old', id: 'rs_old', encryptedContent: 'enc' })
      .add({ type: 'retry', attempt: 2, reason: 'invalid', advisor: 'test' })
      .add({ type: 'reasoning', text: 'new', id: 'rs_new' });
    expect(assembler.build().message.reasoning).toEqual([{ text: 'new', id: 'rs_new' }]);
  });
});
