// The seed example: two tools chained over three model calls, with a system prompt that
// asks for JSON. Run it with `npx tsx examples/tool-chain.ts`; it needs no API key (the
// model is a MockChatModel that reads the tool results it is sent, as a real model would).
import { map, type Observable } from 'rxjs';
import {
  ChatClient,
  tool,
  type ChatResponse,
  type Message,
  type ToolMessage,
} from '../lib/index.js';
import { MockChatModel } from '../lib/testing/index.js';

/** Options of {@link runToolChain}. */
export interface ToolChainOptions {
  /** The clock the current-time tool reads; default `() => new Date()`. */
  now?: () => Date;
  /** Users by registration date (`YYYY-MM-DD`); default a small fixed table. */
  users?: Readonly<Record<string, readonly string[]>>;
}

/** What the example's model answers with. */
export interface RegisteredUsers {
  date: string;
  users: string[];
}

export const SYSTEM_PROMPT =
  'You answer with JSON only: {"date": "YYYY-MM-DD", "users": ["name", ...]}. ' +
  'Use the tools to find the current date and the users registered on it.';

/**
 * Asks which users registered today: round 1 calls `getCurrentTime`, round 2 calls
 * `getUsersRegisteredOn` with the date it learned, round 3 answers in JSON.
 * @param options The clock and the user table.
 * @returns A client and the response Observable of one call.
 */
export function runToolChain(options: ToolChainOptions = {}): {
  model: MockChatModel;
  response$: Observable<ChatResponse>;
  answer$: Observable<RegisteredUsers>;
} {
  const now = options.now ?? (() => new Date());
  const users = options.users ?? { '2026-11-30': ['ada', 'grace'], '2026-11-29': ['alan'] };

  const getCurrentTime = tool({
    name: 'getCurrentTime',
    description: 'The current date and time, as an ISO 8601 string (UTC).',
    parameters: { type: 'object', properties: {}, additionalProperties: false },
    execute: () => now().toISOString(),
  });
  const getUsersRegisteredOn = tool({
    name: 'getUsersRegisteredOn',
    description: 'The names of the users who registered on a date.',
    parameters: {
      type: 'object',
      properties: { date: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' } },
      required: ['date'],
      additionalProperties: false,
    },
    execute: ({ date }) => users[date] ?? [],
  });

  // A stand-in for a real model: it decides from the conversation it is sent.
  const model = MockChatModel.respond((request, call) => {
    const results = request.messages.filter((m: Message): m is ToolMessage => m.role === 'tool');
    const time = results.find((m) => m.name === 'getCurrentTime');
    const registered = results.find((m) => m.name === 'getUsersRegisteredOn');
    const usage = { inputTokens: 100 * call, outputTokens: 10 * call };
    if (time === undefined) {
      return { toolCalls: [{ name: 'getCurrentTime', arguments: {} }], usage };
    }
    const date = time.content.slice(0, 10);
    if (registered === undefined) {
      return { toolCalls: [{ name: 'getUsersRegisteredOn', arguments: { date } }], usage };
    }
    const names = JSON.parse(registered.content) as string[];
    return { text: JSON.stringify({ date, users: names }), usage };
  });

  const client = ChatClient.builder(model)
    .defaultSystem(SYSTEM_PROMPT)
    .defaultTools(getCurrentTime, getUsersRegisteredOn)
    .build();
  const response$ = client.prompt('Which users registered today?').call().chatResponse();
  return {
    model,
    response$,
    answer$: response$.pipe(map((response) => JSON.parse(response.text) as RegisteredUsers)),
  };
}

if (process.argv[1]?.endsWith('tool-chain.ts')) {
  const { response$ } = runToolChain();
  response$.subscribe((response) => {
    console.log(response.text);
    console.log(`model calls: ${response.metadata.rounds}, tokens: ${response.usage.totalTokens}`);
  });
}
