import { lastValueFrom, Subject, takeUntil, tap, toArray } from 'rxjs';
import { agentChunkOf } from '../../lib/agents/agent-chunk';
import { agentTool } from '../../lib/agents/agent-tool';
import { ChatClient } from '../../lib/client/chat-client';
import type { ChatChunk } from '../../lib/core/chat-chunk';
import { OpenAiChatModel } from '../../lib/providers/openai/index';
import { ToolCallingAdvisor } from '../../lib/tools/tool-calling-advisor';
import { openAiClient } from '../providers/support/clients';
import { framesFromLines } from '../providers/support/fixtures';
import { startReplayServer, type ReplayServer } from '../providers/support/replay-server';
import {
  chatChunk,
  chatUsageChunk,
  syntheticChatText,
} from '../providers/support/synthetic-streams';

// Issue 28, point 7: a two-level run (a planner calling a researcher agent) through the real
// openai SDK against the loopback server: one HTTP request per model call of either agent,
// usage summed over the tree, and unsubscribing the planner closing the researcher's request.

// Real HTTP on a busy machine: allow more than jest's default 5 s per test.
jest.setTimeout(20_000);

/** The planner's first round: it delegates the task to `research`. */
const delegation = framesFromLines('openai-chat', [
  chatChunk({ role: 'assistant', content: null }),
  chatChunk({
    tool_calls: [
      {
        index: 0,
        id: 'call_research',
        type: 'function',
        function: { name: 'research', arguments: '{"task":"Population of Paris?"}' },
      },
    ],
  }),
  chatChunk({}, 'tool_calls'),
  chatUsageChunk(30, 10),
]);

describe('agentTool through the real OpenAI client', () => {
  let server: ReplayServer;
  beforeAll(async () => {
    server = await startReplayServer();
  });
  afterAll(() => server.close());

  function planner(): ChatClient {
    const openai = openAiClient(server);
    const researcher = ChatClient.create(
      new OpenAiChatModel({ client: openai, model: 'gpt-research' }),
    );
    return ChatClient.builder(new OpenAiChatModel({ client: openai, model: 'gpt-planner' }))
      .defaultAdvisors(new ToolCallingAdvisor({ emitToolEvents: true }))
      .defaultTools(
        agentTool({ client: researcher, name: 'research', description: 'Researches a question' }),
      )
      .build();
  }

  it('runs planner → researcher → planner over HTTP and sums the usage of both', async () => {
    server.enqueue(
      { kind: 'sse', body: delegation },
      { kind: 'sse', body: syntheticChatText('Paris has 2.1 million people.') },
      { kind: 'sse', body: syntheticChatText('About 2.1 million.') },
    );
    const before = server.requests.length;

    const chunks = await lastValueFrom(
      planner().prompt('How many people live in Paris?').stream().chunks().pipe(toArray()),
    );

    const sent = server.requests.slice(before).map((request) => request.body as SentBody);
    expect(sent.map((body) => body.model)).toEqual(['gpt-planner', 'gpt-research', 'gpt-planner']);
    expect(sent[1].messages).toEqual([{ role: 'user', content: 'Population of Paris?' }]);
    expect(sent[2].messages.at(-1)).toEqual({
      role: 'tool',
      tool_call_id: 'call_research',
      content: 'Paris has 2.1 million people.',
    });
    const nestedText = chunks
      .map(agentChunkOf)
      .flatMap((nested) => (nested?.chunk.type === 'text-delta' ? [nested.chunk.text] : []));
    expect(nestedText.join('')).toBe('Paris has 2.1 million people.');
    // 30 + 9 + 9 in, 10 + 3 + 3 out: the researcher's call counts in the planner's usage.
    expect(chunks.filter((chunk) => chunk.type === 'usage')).toEqual([
      {
        type: 'usage',
        usage: expect.objectContaining({
          inputTokens: 48,
          outputTokens: 16,
          totalTokens: 64,
        }) as unknown,
      },
    ]);
    expect(chunks.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
  });

  it("unsubscribing the planner closes the researcher's HTTP request", async () => {
    const firstWords = framesFromLines('openai-chat', [
      chatChunk({ role: 'assistant', content: 'Paris has' }),
    ]).replace('data: [DONE]\n\n', '');
    server.enqueue(
      { kind: 'sse', body: delegation },
      { kind: 'sse', body: firstWords, hold: true },
    );
    const before = server.requests.length;
    const stop = new Subject<void>();
    const seen: ChatChunk[] = [];
    const closed = server.nextClientClose();

    const done = lastValueFrom(
      planner()
        .prompt('How many people live in Paris?')
        .stream()
        .chunks()
        .pipe(
          tap((chunk) => seen.push(chunk)),
          takeUntil(stop),
          toArray(),
        ),
    );
    // The researcher is streaming: its first words reached the planner's stream. If the
    // unsubscription did not reach its request, `closed` never resolves and the test times out.
    await waitFor(() => seen.some((chunk) => agentChunkOf(chunk)?.chunk.type === 'text-delta'));
    stop.next();
    await done;
    await closed;
    expect(
      server.requests.slice(before).map((request) => (request.body as SentBody).model),
    ).toEqual(['gpt-planner', 'gpt-research']);
  });
});

/** What the tests read of a Chat Completions request body. */
interface SentBody {
  model: string;
  messages: unknown[];
}

/** A promise that resolves once `condition` holds, polled on macrotasks. */
function waitFor(condition: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const poll = (): void => {
      if (condition()) resolve();
      else setImmediate(poll);
    };
    poll();
  });
}
