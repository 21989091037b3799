import { ChatClient } from '../../../../lib/client/chat-client';
import type { ToolApprover } from '../../../../lib/tools/tool-approval';
import type { RunJournal } from '../../../../lib/run/run-journal';
import { DurableRunAdvisor } from '../../../../lib/run/durable/durable-run-advisor';
import type { DurableRunAdvisorOptions } from '../../../../lib/run/durable/durable-run-advisor';
import { MockChatModel } from '../../../../lib/testing/mock-chat-model';
import { ToolCallingAdvisor } from '../../../../lib/tools/tool-calling-advisor';
import { tool } from '../../../../lib/tools/tool-fn';

/** What a trip run did: every tool execution, in order (`name(city)`). */
export type SideEffects = string[];

const CITY = {
  type: 'object',
  properties: { city: { type: 'string' } },
  required: ['city'],
  additionalProperties: false,
} as const;

/**
 * A three-round run with parallel tools, as a user would write it: round 1 searches two
 * cities at once (idempotent), round 2 books one and sends a mail at once (neither
 * idempotent), round 3 answers in many small deltas. The model answers from the request
 * (how many rounds it holds), so a fresh model in a fresh process continues a run.
 */
export function tripModel(): MockChatModel {
  return MockChatModel.respond((request) => {
    const round = request.messages.filter((m) => m.role === 'assistant').length + 1;
    if (round === 1) {
      return {
        toolCalls: [
          { id: 'r1-oslo', name: 'search', arguments: { city: 'Oslo' } },
          { id: 'r1-bergen', name: 'search', arguments: { city: 'Bergen' } },
        ],
        usage: { inputTokens: 10, outputTokens: 5 },
      };
    }
    if (round === 2) {
      return {
        text: 'Booking now.',
        toolCalls: [
          { id: 'r2-book', name: 'book', arguments: { city: 'Oslo' } },
          { id: 'r2-mail', name: 'mail', arguments: { city: 'Oslo' } },
        ],
        usage: { inputTokens: 20, outputTokens: 6 },
      };
    }
    const results = request.messages.flatMap((m) => (m.role === 'tool' ? [m.content] : []));
    return {
      text: `Done: ${results.join('; ')}. Have a good trip!`,
      usage: { inputTokens: 30, outputTokens: 7 },
    };
  });
}

/** The run's tools; each execution is reported to `ran` before it answers. */
export function tripTools(ran: (effect: string) => void) {
  const run =
    (name: string, answer: (city: string) => string) =>
    ({ city }: { city: string }) => {
      ran(`${name}(${city})`);
      return answer(city);
    };
  return [
    tool({
      name: 'search',
      description: 'Flights to a city',
      parameters: CITY,
      idempotent: true,
      execute: run('search', (city) => `2 flights to ${city}`),
    }),
    tool({
      name: 'book',
      description: 'Books the cheapest flight',
      parameters: CITY,
      execute: run('book', (city) => `booked ${city}`),
    }),
    tool({
      name: 'mail',
      description: 'Mails the booking',
      parameters: CITY,
      execute: run('mail', (city) => `mailed ${city}`),
    }),
  ];
}

/** How a trip client is set up. */
export interface TripOptions extends Partial<DurableRunAdvisorOptions> {
  journal: RunJournal;
  ran?: (effect: string) => void;
  approve?: ToolApprover;
  emitToolEvents?: boolean;
}

/** A `ChatClient` with the durable run outermost, the trip's tools and model. */
export function tripClient(options: TripOptions) {
  const { ran = () => undefined, approve, emitToolEvents = false, ...durable } = options;
  const model = tripModel();
  const loop = new ToolCallingAdvisor(
    approve === undefined ? { emitToolEvents } : { emitToolEvents, approve },
  );
  const client = ChatClient.builder(model)
    .defaultAdvisors(new DurableRunAdvisor(durable), loop)
    .defaultTools(...tripTools(ran))
    .build();
  return { client, model };
}

export const TRIP_QUESTION = 'Book me the cheapest flight to Oslo.';
export const TRIP_ANSWER =
  'Booking now.Done: 2 flights to Oslo; 2 flights to Bergen; booked Oslo; mailed Oslo. Have a good trip!';
