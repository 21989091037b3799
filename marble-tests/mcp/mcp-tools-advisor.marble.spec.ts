import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Observable } from 'rxjs';
import { type TestScheduler } from 'rxjs/testing';
import type { AdvisorChain } from '../../lib/advisor-api/advisor.js';
import type { ChatChunk } from '../../lib/core/chat-chunk.js';
import { ChatRequest } from '../../lib/core/chat-request.js';
import type { Tool } from '../../lib/core/tool.js';
import { McpToolSource } from '../../lib/mcp/mcp-tool-source.js';
import { mcpToolsAdvisor } from '../../lib/mcp/mcp-tools-advisor.js';
import { tool } from '../../lib/tools/tool-fn.js';
import { createTestScheduler } from '../support/test-scheduler';

const text = (t: string): ChatChunk => ({ type: 'text-delta', text: t });
const local = tool({
  name: 'local',
  description: 'l',
  parameters: { type: 'object' },
  execute: () => 'l',
});
const remote = tool({
  name: 'remote',
  description: 'r',
  parameters: { type: 'object' },
  execute: () => 'r',
});

/** A settled thenable: `from()` reads it synchronously, so the listing takes no frame. */
const settled = (tools: readonly Tool[] | Error): PromiseLike<readonly Tool[]> => ({
  then: (resolve, reject) => {
    if (tools instanceof Error) reject?.(tools);
    else resolve?.(tools);
    return undefined as never;
  },
});

/** A source whose listing answers `tools`, counting its calls. */
function sourceListing(tools: readonly Tool[] | Error): {
  source: McpToolSource;
  listed: () => number;
} {
  const source = new McpToolSource({ server: { client: {} as Client } });
  const spy = jest
    .spyOn(source, 'listTools')
    .mockImplementation(() => settled(tools) as Promise<readonly Tool[]>);
  return { source, listed: () => spy.mock.calls.length };
}

/** A chain whose `next` records the request and answers `round$`. */
function chainOf(round$: Observable<ChatChunk>): { chain: AdvisorChain; requests: ChatRequest[] } {
  const requests: ChatRequest[] = [];
  const chain: AdvisorChain = {
    next: (request) => {
      requests.push(request);
      return round$;
    },
    copy: () => chain,
    advisors: [],
  };
  return { chain, requests };
}

describe('mcpToolsAdvisor (marble)', () => {
  let testScheduler: TestScheduler;

  beforeEach(() => {
    testScheduler = createTestScheduler();
  });

  it('adds the listed tools to the request, then passes the chunks through', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const round = cold('  -a-b-|', { a: text('Hi'), b: text('!') });
      const roundSubs = '   ^----!';
      const expected = '    -a-b-|';
      const { source } = sourceListing([remote]);
      const { chain, requests } = chainOf(round);

      const result$ = mcpToolsAdvisor({ source }).advise(
        ChatRequest.create({ tools: [local] }),
        chain,
      );

      expectObservable(result$).toBe(expected, { a: text('Hi'), b: text('!') });
      expectSubscriptions(round.subscriptions).toBe(roundSubs);
      testScheduler.flush();
      expect(requests.map((r) => r.tools.map((t) => t.name))).toEqual([['local', 'remote']]);
    });
  });

  it('a failed listing is the stream error and the chain is never called', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const round = cold('  -a-|', { a: text('Hi') });
      const expected = '    #';
      const failure = new Error('unreachable');
      const { source } = sourceListing(failure);

      const result$ = mcpToolsAdvisor({ source }).advise(
        ChatRequest.create(),
        chainOf(round).chain,
      );

      expectObservable(result$).toBe(expected, undefined, failure);
      expectSubscriptions(round.subscriptions).toBe([]);
    });
  });

  it('a name clash with the call tools fails before the chain is called', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const round = cold('  -a-|', { a: text('Hi') });
      const clash = tool({
        name: 'remote',
        description: 'x',
        parameters: { type: 'object' },
        execute: () => 'x',
      });
      const { source } = sourceListing([remote]);

      const result$ = mcpToolsAdvisor({ source }).advise(
        ChatRequest.create({ tools: [clash] }),
        chainOf(round).chain,
      );

      expectObservable(result$).toBe(
        '#',
        undefined,
        expect.objectContaining({ name: 'InvalidOptionsError' }),
      );
      expectSubscriptions(round.subscriptions).toBe([]);
    });
  });

  it('passes an empty round through, and an early unsubscription reaches the chain', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const empty = cold<ChatChunk>('  ---|');
      const long = cold('   -a-b-c-|', { a: text('a'), b: text('b'), c: text('c') });
      const longSubs = '    ^--!';
      const { source } = sourceListing([remote]);
      const advisor = mcpToolsAdvisor({ source });

      expectObservable(advisor.advise(ChatRequest.create(), chainOf(empty).chain)).toBe('---|');
      expectObservable(advisor.advise(ChatRequest.create(), chainOf(long).chain), '^--!').toBe(
        '-a-',
        {
          a: text('a'),
        },
      );
      expectSubscriptions(long.subscriptions).toBe(longSubs);
    });
  });

  it('lists again for each subscription (the source caches, the advisor keeps no state)', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const round = cold('  -a|', { a: text('a') });
      const { source, listed } = sourceListing([remote]);
      const result$ = mcpToolsAdvisor({ source }).advise(
        ChatRequest.create(),
        chainOf(round).chain,
      );

      expectObservable(result$).toBe('-a|', { a: text('a') });
      expectObservable(result$).toBe('-a|', { a: text('a') });
      expectSubscriptions(round.subscriptions).toBe(['^-!', '^-!']);
      testScheduler.flush();
      expect(listed()).toBe(2);
    });
  });
});
