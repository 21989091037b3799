// Issue 26 point 7: InMemoryRunJournal keeps the records the durable run hands over by
// reference (no text per record). A recorded round must not change afterwards, whatever
// the caller, the next round's advisors or the model do to the objects they hold: the
// caller's messages, the tool messages the loop passes on, the provider data of a call, an
// approval decision. Each test changes them in place after they were recorded, then reads
// the journal, and resumes the run from it.
import { lastValueFrom, of, toArray } from 'rxjs';
import { ChatClient } from '../../../lib/client/chat-client';
import type { ChatChunk } from '../../../lib/core/chat-chunk';
import type { Message } from '../../../lib/core/message';
import type { ChatRequest } from '../../../lib/core/chat-request';
import { DurableRunAdvisor } from '../../../lib/run/durable/durable-run-advisor';
import { InMemoryRunJournal } from '../../../lib/run/in-memory-run-journal';
import type { RunRecord } from '../../../lib/run/run-record';
import { MockChatModel } from '../../../lib/testing/mock-chat-model';
import { ToolCallingAdvisor } from '../../../lib/tools/tool-calling-advisor';
import { tool } from '../../../lib/tools/tool-fn';
import { look } from './support/look-tool';

const key = { owner: 'o', runId: 'r1' };
const ROUNDS = 2;

/** Changes every message of a request in place: what a careless advisor or model may do. */
function scribble(messages: readonly Message[]): void {
  for (const message of messages as Message[]) {
    (message as { content: unknown }).content = 'CHANGED';
    if (message.role === 'assistant')
      for (const call of message.toolCalls ?? [])
        (call as { arguments: unknown }).arguments = '{"changed":true}';
    if (message.role === 'tool') (message as { name: string }).name = 'changed';
  }
}

function setUp(options: { scribbleRequests: boolean }) {
  const journal = new InMemoryRunJournal();
  const seen: ChatRequest[] = [];
  const model = MockChatModel.respond((request) => {
    seen.push(request);
    const round = request.messages.filter((m) => m.role === 'assistant').length + 1;
    const answer =
      round <= ROUNDS
        ? { toolCalls: [{ id: `c${round}`, name: 'look', arguments: { round } }] }
        : { text: 'Done.' };
    // The model reads the request, then changes what it holds: the previous rounds' messages.
    if (options.scribbleRequests) scribble(request.messages);
    return answer;
  });
  const look = tool({
    name: 'look',
    description: 'Looks',
    parameters: { type: 'object', properties: { round: { type: 'number' } } },
    idempotent: true,
    execute: ({ round }: { round?: number }) => `seen ${round}`,
  });
  const client = ChatClient.builder(model)
    .defaultAdvisors(new DurableRunAdvisor({ journal, owner: 'o' }), new ToolCallingAdvisor())
    .defaultTools(look)
    .build();
  return { journal, model, client, seen };
}

const textOf = (chunks: readonly ChatChunk[]): string =>
  chunks.map((chunk) => (chunk.type === 'text-delta' ? chunk.text : '')).join('');

/** What the journal must hold for the run, whatever was changed after. */
function expectOriginal(records: readonly RunRecord[]): void {
  const started = records.find((r) => r.type === 'run-started');
  expect(started?.type === 'run-started' && started.messages).toEqual([
    { role: 'user', content: 'Go.' },
  ]);
  const rounds = records.filter((r) => r.type === 'model-round');
  expect(
    rounds.map((r) => (r.type === 'model-round' ? [r.message.content, r.message.toolCalls] : [])),
  ).toEqual([
    ['', [{ id: 'c1', name: 'look', arguments: '{"round":1}' }]],
    ['', [{ id: 'c2', name: 'look', arguments: '{"round":2}' }]],
    ['Done.', undefined],
  ]);
  const outcomes = records.filter((r) => r.type === 'tool-outcome');
  expect(
    outcomes.map((r) => (r.type === 'tool-outcome' ? [r.message.name, r.message.content] : [])),
  ).toEqual([
    ['look', 'seen 1'],
    ['look', 'seen 2'],
  ]);
}

describe('InMemoryRunJournal keeps what the durable run recorded', () => {
  it('when the next rounds change the messages they are given (tool results, assistant calls)', async () => {
    const { journal, client, model } = setUp({ scribbleRequests: true });
    const chunks = await lastValueFrom(
      client.prompt('Go.').advisorParams({ runId: 'r1' }).stream().chunks().pipe(toArray()),
    );
    expect(textOf(chunks)).toBe('Done.');
    expect(model.calls).toBe(ROUNDS + 1);
    expectOriginal(await journal.read(key));
  });

  it('when the caller changes its messages after the call, and a read copy is changed', async () => {
    const { journal, client, seen } = setUp({ scribbleRequests: false });
    const mine: Message[] = [{ role: 'user', content: 'Go.' }];
    await lastValueFrom(
      client
        .prompt()
        .messages(...mine)
        .advisorParams({ runId: 'r1' })
        .stream()
        .chunks()
        .pipe(toArray()),
    );
    scribble(mine);
    for (const request of seen) scribble(request.messages);
    const first = await journal.read(key);
    // A read gives copies: changing one changes nothing kept.
    for (const record of first) if (record.type === 'run-started') scribble(record.messages);
    expectOriginal(await journal.read(key));
  });

  it('a run resumed from the journal sends the model the recorded rounds, not the changed objects', async () => {
    const first = setUp({ scribbleRequests: true });
    await lastValueFrom(
      first.client.prompt('Go.').advisorParams({ runId: 'r1' }).stream().chunks().pipe(toArray()),
    );
    // The run as a crash before its answer's round leaves it: up to the last tool outcome.
    const records = await first.journal.read(key);
    const cut = records.findIndex((r) => r.type === 'model-round' && r.round === ROUNDS + 1);
    const again = setUp({ scribbleRequests: false });
    await again.journal.append(key, records.slice(0, cut), 0);
    const chunks = await lastValueFrom(
      again.client.prompt('Go.').advisorParams({ runId: 'r1' }).stream().chunks().pipe(toArray()),
    );
    expect(textOf(chunks)).toBe('Done.');
    expect(again.model.calls).toBe(1); // the recorded rounds replayed, the answer asked
    expect(
      again.seen[0].messages.map((m) =>
        m.role === 'assistant' ? [m.role, m.toolCalls?.[0].arguments] : [m.role, m.content],
      ),
    ).toEqual([
      ['user', 'Go.'],
      ['assistant', '{"round":1}'],
      ['tool', 'seen 1'],
      ['assistant', '{"round":2}'],
      ['tool', 'seen 2'],
    ]);
  });

  it("when the provider data of a call is changed after the round (the chunk's object)", async () => {
    const providerMetadata = { google: { thoughtSignature: 'sig-1' } };
    const journal = new InMemoryRunJournal();
    const model = MockChatModel.fromStreams([
      of<ChatChunk[]>(
        { type: 'tool-call', id: 'c1', name: 'look', arguments: '{}', providerMetadata },
        { type: 'finish', reason: 'tool-calls' },
      ),
      of<ChatChunk[]>({ type: 'text-delta', text: 'Done.' }, { type: 'finish', reason: 'stop' }),
    ]);
    const client = ChatClient.builder(model)
      .defaultAdvisors(new DurableRunAdvisor({ journal, owner: 'o' }), new ToolCallingAdvisor())
      .defaultTools(look)
      .build();
    await lastValueFrom(
      client.prompt('Go.').advisorParams({ runId: 'r1' }).stream().chunks().pipe(toArray()),
    );
    providerMetadata.google.thoughtSignature = 'CHANGED';
    const round = (await journal.read(key)).find((r) => r.type === 'model-round');
    expect(round?.type === 'model-round' && round.message.toolCalls?.[0].providerMetadata).toEqual({
      google: { thoughtSignature: 'sig-1' },
    });
  });
});
