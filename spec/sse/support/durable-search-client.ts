// The client both restore specs run (in-process streams and Redis streams): a durable run
// over a journal, one idempotent `search` tool that counts its executions, and the helpers
// that read an answer's SSE events.
import type { EventSourceMessage } from 'eventsource-parser';
import type { ChatModel } from '../../../lib/core/chat-model';
import { ChatClient } from '../../../lib/client/chat-client';
import { DurableRunAdvisor } from '../../../lib/run/durable/durable-run-advisor';
import type { RunJournal } from '../../../lib/run/run-journal';
import { tool } from '../../../lib/tools/tool-fn';

/** A client with a durable run on `journal` and a `search` tool; `searches` lists each run. */
export function durableSearchClient(
  chatModel: ChatModel,
  journal: RunJournal,
): { client: ChatClient; searches: string[] } {
  const searches: string[] = [];
  const search = tool({
    name: 'search',
    description: 'Searches',
    parameters: { type: 'object', properties: { q: { type: 'string' } } },
    idempotent: true,
    execute: ({ q }: { q?: string }) => {
      searches.push(String(q));
      return 'found it';
    },
  });
  const client = ChatClient.builder(chatModel)
    .defaultAdvisors(new DurableRunAdvisor({ journal }))
    .defaultTools(search)
    .build();
  return { client, searches };
}

/** The answer's text, from its `text-delta` events. */
export const text = (events: readonly EventSourceMessage[]): string =>
  events
    .filter((e) => e.event === 'text-delta')
    .map((e) => (JSON.parse(e.data) as { text: string }).text)
    .join('');

/** How many `text-delta` events there are. */
export const deltas = (events: readonly EventSourceMessage[]): number =>
  events.filter((e) => e.event === 'text-delta').length;
