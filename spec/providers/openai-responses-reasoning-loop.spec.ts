import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { lastValueFrom, toArray } from 'rxjs';
import { ChatClient } from '../../lib/client/chat-client.js';
import { OpenAiChatModel } from '../../lib/providers/openai/index.js';
import { ToolCallingAdvisor } from '../../lib/tools/tool-calling-advisor.js';
import { tool } from '../../lib/tools/tool-fn.js';
import { openAiClient } from './support/clients.js';
import { FIXTURES_DIR, responsesRounds } from './support/fixtures.js';
import { startReplayServer, type ReplayServer, type WireJson } from './support/replay-server.js';

// Real HTTP on a busy machine: allow more than jest's default 5 s per test.
jest.setTimeout(20_000);

const FIXTURE = 'openai-reasoning-encrypted-content.1.chunks.txt';

/** The recorded round-1 reasoning item as `response.output_item.done` sent it. */
function recordedReasoningItem(): { id: string; encrypted_content: string; summary: WireJson[] } {
  const lines = readFileSync(join(FIXTURES_DIR, 'openai-responses', FIXTURE), 'utf8').split('\n');
  for (const line of lines) {
    if (line.trim() === '') continue;
    const payload = JSON.parse(line) as { type: string; item?: WireJson };
    if (payload.type === 'response.output_item.done' && payload.item?.type === 'reasoning') {
      return payload.item as { id: string; encrypted_content: string; summary: WireJson[] };
    }
  }
  throw new Error(`no reasoning item in ${FIXTURE}`);
}

function calculator(operations: string[]) {
  return tool({
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
}

describe('ChatClient + ToolCallingAdvisor over the Responses API: reasoning goes back each round', () => {
  let server: ReplayServer;
  beforeAll(async () => {
    server = await startReplayServer();
  });
  afterAll(() => server.close());

  /** The recorded four-call loop, with the settings it was recorded with (stateless). */
  function statelessModel(): OpenAiChatModel {
    return new OpenAiChatModel({
      client: openAiClient(server),
      model: 'gpt-5.1-codex-max',
      api: 'responses',
      options: { extra: { store: false, reasoning: { effort: 'high', summary: 'detailed' } } },
    });
  }

  it('rounds 2 to 4 carry round 1 reasoning item (id + encrypted content) before its function call', async () => {
    server.enqueue(...responsesRounds(FIXTURE).map((body) => ({ kind: 'sse' as const, body })));
    const operations: string[] = [];
    const client = ChatClient.builder(statelessModel())
      .defaultAdvisors(new ToolCallingAdvisor())
      .build();
    const before = server.requests.length;

    const response = await lastValueFrom(
      client.prompt('(12 + 7) * 3 * 10?').tools(calculator(operations)).call().chatResponse(),
    );

    expect(response.text).toBe('The final result is **570**.');
    expect(operations).toEqual(['12 add 7', '19 multiply 3', '57 multiply 10']);
    expect(response.metadata.rounds).toBe(4);

    const sent: WireJson[] = [];
    for (const request of server.requests.slice(before)) sent.push(request.body);
    expect(sent).toHaveLength(4);
    for (const body of sent) {
      expect(body.store).toBe(false);
      expect(body.include).toEqual(['reasoning.encrypted_content']);
    }
    const recorded = recordedReasoningItem();
    const reasoningItem = {
      type: 'reasoning',
      id: recorded.id,
      summary: [{ type: 'summary_text', text: recorded.summary[0].text as string }],
      encrypted_content: recorded.encrypted_content,
    };
    expect(recorded.summary).toHaveLength(1);

    // Round 1 has nothing to send back yet.
    expect(sent[0].input).toEqual([{ role: 'user', content: '(12 + 7) * 3 * 10?' }]);
    // Round 2: the reasoning item directly before the function call it led to.
    expect(sent[1].input).toEqual([
      { role: 'user', content: '(12 + 7) * 3 * 10?' },
      reasoningItem,
      {
        type: 'function_call',
        call_id: 'call_AB6AaRZ1FYZB2RwS6A5vbdqn',
        name: 'calculator',
        arguments: '{"a":12,"b":7,"op":"add"}',
      },
      { type: 'function_call_output', call_id: 'call_AB6AaRZ1FYZB2RwS6A5vbdqn', output: '19' },
    ]);
    // Later rounds of the same user turn still carry it, once, at the same place.
    for (const body of sent.slice(2)) {
      const reasoning = (body.input as WireJson[]).filter((item) => item.type === 'reasoning');
      expect(reasoning).toEqual([reasoningItem]);
      expect(body.input.slice(0, 3)).toEqual(sent[1].input.slice(0, 3));
    }
  });

  it('the stream shows the reasoning once: its deltas and one complete `reasoning` chunk', async () => {
    server.enqueue(...responsesRounds(FIXTURE).map((body) => ({ kind: 'sse' as const, body })));
    const chunks = await lastValueFrom(
      ChatClient.create(statelessModel())
        .prompt('(12 + 7) * 3 * 10?')
        .tools(calculator([]))
        .stream()
        .chunks()
        .pipe(toArray()),
    );
    const recorded = recordedReasoningItem();
    const complete = chunks.filter((chunk) => chunk.type === 'reasoning');
    expect(complete).toEqual([
      {
        type: 'reasoning',
        text: recorded.summary[0].text,
        id: recorded.id,
        encryptedContent: recorded.encrypted_content,
      },
    ]);
    const deltas = chunks.filter((chunk) => chunk.type === 'reasoning-delta');
    expect(deltas.map((chunk) => chunk.text).join('')).toBe(recorded.summary[0].text);
  });
});
