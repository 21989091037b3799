// recursiveAdvisor's decision log (ContextKeys.RECURSION_DECISIONS): with recordDecisions,
// a decision the log holds is taken without calling `next`; a new one is recorded with the
// usage it spent; failed attempts and advisors without the option never touch the log.
import { lastValueFrom, toArray } from 'rxjs';
import { advisor } from '../../lib/advisor-api/advisor';
import { ContextKeys } from '../../lib/advisor-api/context-keys';
import { Order } from '../../lib/advisor-api/order';
import type {
  RecordedRecursionDecision,
  RecursionDecisionLog,
} from '../../lib/advisor-api/recursion-decisions';
import { recursiveAdvisor, type RecursionState } from '../../lib/advisor-api/recursive-advisor';
import { ChatClient } from '../../lib/client/chat-client';
import type { ChatChunk } from '../../lib/core/chat-chunk';
import { MockChatModel } from '../../lib/testing/mock-chat-model';

function logIn(kept: Map<string, RecordedRecursionDecision>, recorded: string[]) {
  const log: RecursionDecisionLog = {
    recorded: (name, attempt) => kept.get(`${name}/${attempt}`),
    record: (name, attempt, decision) => {
      recorded.push(`${name}/${attempt}`);
      kept.set(`${name}/${attempt}`, decision);
    },
  };
  return advisor({
    name: 'log',
    order: Order.HIGHEST_PRECEDENCE,
    before: (request) => {
      request.context.set(ContextKeys.RECURSION_DECISIONS, log);
      return request;
    },
  });
}

/** Retries once with a feedback message, spending judge usage; counts its calls. */
function judging(recordDecisions: boolean) {
  const states: RecursionState[] = [];
  const retrying = recursiveAdvisor({
    name: 'judging',
    order: 0,
    recordDecisions,
    next: (state) => {
      states.push(state);
      state.addUsage({ inputTokens: 100, outputTokens: 1 });
      return state.attempt === 1
        ? {
            request: state.originalRequest.appendMessages({ role: 'user', content: 'More.' }),
            reason: 'too short',
          }
        : undefined;
    },
  });
  return { retrying, states };
}

const run = (client: ChatClient) =>
  lastValueFrom(client.prompt('Hi').stream().chunks().pipe(toArray()));
const usage = (chunks: ChatChunk[]) => chunks.filter((c) => c.type === 'usage').at(-1);

describe('recursiveAdvisor decision log', () => {
  it('records each decision with what it spent, then takes the recorded ones without next', async () => {
    const kept = new Map<string, RecordedRecursionDecision>();
    const recorded: string[] = [];
    const model = MockChatModel.respond((request) => ({
      text: request.messages.some((m) => m.content === 'More.') ? 'Long answer.' : 'Short.',
      usage: { inputTokens: 1, outputTokens: 1 },
    }));
    const { retrying, states } = judging(true);
    const client = ChatClient.builder(model)
      .defaultAdvisors(logIn(kept, recorded), retrying)
      .build();
    const first = await run(client);
    expect(states).toHaveLength(2);
    expect(recorded).toEqual(['judging/1', 'judging/2']);
    expect(kept.get('judging/1')).toMatchObject({
      retry: true,
      reason: 'too short',
      usage: { inputTokens: 100, outputTokens: 1 },
    });
    expect(kept.get('judging/1')?.messages?.at(-1)).toEqual({ role: 'user', content: 'More.' });
    expect(kept.get('judging/2')).toMatchObject({ retry: false });

    const again = await run(client);
    expect(states).toHaveLength(2); // next not called: both decisions were recorded
    expect(recorded).toHaveLength(2);
    expect(again.find((c) => c.type === 'retry')).toEqual(first.find((c) => c.type === 'retry'));
    // The recorded messages went to the second attempt's model call.
    expect(model.requests.at(-1)?.messages.at(-1)).toEqual({ role: 'user', content: 'More.' });
    expect(usage(again)).toEqual(usage(first));
  });

  it('leaves the log alone without recordDecisions (the default)', async () => {
    const recorded: string[] = [];
    const kept = new Map<string, RecordedRecursionDecision>([['judging/1', { retry: false }]]);
    const { retrying, states } = judging(false);
    const model = MockChatModel.respond(() => ({ text: 'x' }));
    await run(ChatClient.builder(model).defaultAdvisors(logIn(kept, recorded), retrying).build());
    expect(states).toHaveLength(2);
    expect(recorded).toEqual([]);
  });

  it('decides a failed attempt with next, outside the log', async () => {
    const recorded: string[] = [];
    const kept = new Map<string, RecordedRecursionDecision>([
      ['retry-on-error/1', { retry: false }],
    ]);
    let calls = 0;
    const retrying = recursiveAdvisor({
      name: 'retry-on-error',
      order: 0,
      recordDecisions: true,
      next: ({ error, attempt, request }) =>
        error !== undefined && attempt < 2 ? request : undefined,
    });
    const model = MockChatModel.respond(() => {
      calls++;
      if (calls === 1) throw new Error('flaky');
      return { text: 'ok' };
    });
    const chunks = await run(
      ChatClient.builder(model).defaultAdvisors(logIn(kept, recorded), retrying).build(),
    );
    expect(chunks.filter((c) => c.type === 'retry')).toHaveLength(1);
    // The recorded "stop" after attempt 1 was not used: that attempt failed.
    expect(recorded).toEqual(['retry-on-error/2']);
  });
});
