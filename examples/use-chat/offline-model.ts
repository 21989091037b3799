import type { ChatModel, ChatRequest, ToolMessage } from 'rx-advisors';
import { MockChatModel, type MockRound } from 'rx-advisors/testing';

/** Options of {@link createOfflineModel}. */
export interface OfflineModelOptions {
  /** Milliseconds (RxJS time) between chunks, so streaming is visible; default 40. */
  interval?: number;
}

/** The words of the long answer ("tell me a story"): long enough to press Stop or reload. */
export const STORY =
  'Once upon a time a stream of chunks left a server, crossed a socket, and reached a page that ' +
  'parsed every part of it with its own hands. The page showed each word as it came, kept the ' +
  'tool calls in their places, and never lost a step, even when the connection dropped and came ' +
  'back again. The end.';

/**
 * The example's model when no API key is set: `MockChatModel.respond` from
 * `rx-advisors/testing`, answering from the request like a model would. "time in <city>"
 * asks for `getTime`, "delete user <n>" asks for `deleteUser` (which needs approval),
 * "research <topic>" asks the `research` agent, "story" streams {@link STORY}; after tool
 * results it answers from them; anything else is echoed.
 *
 * @example
 * ```ts
 * const client = ChatClient.builder(createOfflineModel({ interval: 40 })).build();
 * client.prompt('What time is it in Paris?').stream().content().subscribe(console.log);
 * ```
 * @param options Pacing.
 * @returns A new model.
 */
export function createOfflineModel(options: OfflineModelOptions = {}): ChatModel {
  const { interval = 40 } = options;
  return MockChatModel.respond((request) => ({ ...reply(request), interval }), {
    provider: 'offline',
    model: 'offline-use-chat',
  });
}

function reply(request: ChatRequest): MockRound {
  const results = toolResultsOfThisTurn(request);
  if (results.length > 0) return { text: answerFrom(results) };
  const question = request.lastUserText ?? '';
  const deletions = [...question.matchAll(/\bdelete users? ((?:\d+(?:,\s*|\s+and\s+)?)+)/gi)];
  if (deletions.length > 0) {
    const ids = [...deletions[0][1].matchAll(/\d+/g)].map((match) => Number(match[0]));
    return {
      text: `I will ask before deleting ${ids.length === 1 ? 'it' : 'them'}.`,
      toolCalls: ids.map((id) => ({ name: 'deleteUser', arguments: { id } })),
    };
  }
  const cities = [...question.matchAll(/\btime (?:is it )?in ([A-Z][a-z]+(?: [A-Z][a-z]+)?)/g)];
  if (cities.length > 0) {
    return {
      text: 'Let me look that up.',
      toolCalls: cities.map((city) => ({ name: 'getTime', arguments: { city: city[1] } })),
    };
  }
  const research = /\bresearch (.+?)[.?!]*$/i.exec(question);
  if (research !== null) {
    return {
      text: 'I will ask the researcher.',
      toolCalls: [{ name: 'research', arguments: { task: research[1] } }],
    };
  }
  if (/\bstory\b/i.test(question)) return { text: STORY };
  return { text: `You said: ${question}` };
}

/** The tool results after the last user message (the loop's rounds of this turn). */
function toolResultsOfThisTurn(request: ChatRequest): ToolMessage[] {
  const results: ToolMessage[] = [];
  for (let i = request.messages.length - 1; i >= 0; i--) {
    const message = request.messages[i];
    if (message.role === 'user') break;
    if (message.role === 'tool') results.unshift(message);
  }
  return results;
}

function answerFrom(results: readonly ToolMessage[]): string {
  return results.map((result) => `${result.name}: ${result.content}.`).join(' ');
}
