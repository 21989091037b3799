import { lastValueFrom, tap } from 'rxjs';
import { BudgetAdvisor } from '../../lib/budget/budget-advisor.js';
import { ChatClient } from '../../lib/client/chat-client.js';
import type { ChatChunk } from '../../lib/core/chat-chunk.js';
import { BudgetExceededError } from '../../lib/errors/budget-exceeded-error.js';
import { OpenAiChatModel } from '../../lib/providers/openai/index.js';
import { failure, openAiClient } from '../providers/support/clients.js';
import { startReplayServer, type ReplayServer } from '../providers/support/replay-server.js';
import { chatChunk } from '../providers/support/synthetic-streams.js';

// Real HTTP on a busy machine: allow more than jest's default 5 s per test.
jest.setTimeout(20_000);

/** Eight characters: two tokens by the default estimate. */
const TWO = 'abcdefgh';

/** Four content deltas, then the response stays open: only the client can end it. */
const heldStream = (): string =>
  [
    chatChunk({ role: 'assistant', content: TWO }),
    chatChunk({ content: TWO }),
    chatChunk({ content: TWO }),
    chatChunk({ content: TWO }),
  ]
    .map((line) => `data: ${line}\n\n`)
    .join('');

describe('BudgetAdvisor through the real openai SDK (loopback server)', () => {
  let server: ReplayServer;
  beforeAll(async () => {
    server = await startReplayServer();
  });
  afterAll(() => server.close());

  const client = (budget: BudgetAdvisor): ChatClient =>
    ChatClient.builder(new OpenAiChatModel({ client: openAiClient(server), model: 'gpt-test' }))
      .defaultAdvisors(budget)
      .build();

  it('aborts the HTTP request mid-stream when the output budget is crossed, and fails with the spend', async () => {
    server.enqueue({ kind: 'sse', body: heldStream(), hold: true });
    const closed = server.nextClientClose();
    const seen: ChatChunk[] = [];
    const chunks$ = client(new BudgetAdvisor({ maxOutputTokens: 5 }))
      .prompt('')
      .stream()
      .chunks();
    const error = await failure(chunks$.pipe(tap((chunk) => seen.push(chunk))));
    // The server never ended the response: the client closed the connection.
    await expect(closed).resolves.toBeUndefined();
    expect(BudgetExceededError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ limit: 'outputTokens', max: 5, spentOfLimit: 6 });
    expect(seen.filter((chunk) => chunk.type === 'text-delta')).toHaveLength(3);
  });

  it("ends gracefully with onExceeded 'finish': the request aborted, finish 'length' and the stop reason", async () => {
    server.enqueue({ kind: 'sse', body: heldStream(), hold: true });
    const closed = server.nextClientClose();
    const budget = new BudgetAdvisor({ maxOutputTokens: 3, onExceeded: 'finish' });
    const response = await lastValueFrom(client(budget).prompt('').call().chatResponse());
    await expect(closed).resolves.toBeUndefined();
    expect(response.text).toBe(TWO + TWO);
    expect(response.finishReason).toBe('length');
    expect(response.metadata.stopReason).toEqual({
      type: 'budget-exceeded',
      limit: 'outputTokens',
      spent: 4,
      max: 3,
    });
    expect(response.usage.outputTokens).toBe(4);
  });
});
