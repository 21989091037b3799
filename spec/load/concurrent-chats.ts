// N concurrent chats through ONE ChatClient, each with a tool round, against the loopback
// OpenAI-compatible server: used by spec/load/concurrent-chats.spec.ts (N = 200) and by
// bench/concurrent-chats.ts (N = 2,000).
import OpenAI from 'openai';
import { lastValueFrom, map, mergeMap, range, toArray } from 'rxjs';
import { ChatClient, tool } from 'rx-advisors';
import { OpenAiChatModel } from 'rx-advisors/openai';
import type { LoopbackOpenAi } from './loopback-openai-server';

/** What came back: one entry per answer received, in arrival order. */
export interface ChatOutcome {
  readonly chat: string;
  readonly text: string;
}

/**
 * Runs `count` chats at once (all subscribed together) through one client.
 * @param server The loopback server.
 * @param count How many chats.
 * @returns Every answer that arrived, with the chat it belongs to.
 */
export function runConcurrentChats(server: LoopbackOpenAi, count: number): Promise<ChatOutcome[]> {
  const echo = tool({
    name: 'echo',
    description: 'Echoes the chat id',
    parameters: {
      type: 'object',
      properties: { chat: { type: 'string' } },
      required: ['chat'],
    } as const,
    execute: ({ chat }) => `tool saw ${chat}`,
  });
  const client = ChatClient.builder(
    new OpenAiChatModel({
      client: new OpenAI({ apiKey: 'loopback', baseURL: server.baseURL, maxRetries: 0 }),
      model: 'load',
    }),
  )
    .defaultTools(echo)
    .build();
  return lastValueFrom(
    range(1, count).pipe(
      mergeMap((n) =>
        client
          .prompt(`chat-${n}`)
          .call()
          .content()
          .pipe(map((text) => ({ chat: `chat-${n}`, text }))),
      ),
      toArray(),
    ),
  );
}
