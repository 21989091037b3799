// The window-equivalence check shared by the repository contract: random conversations
// (user turns, tool calls with one or more results, assistant-only stretches, orphan tool
// results, new system messages, summaries) written through two MessageWindowChatMemory:
// the reference over a repository that only has the four required methods (the
// read-modify-write path every memory took before `append`/`findLast`), and the one under
// test over the given repository (`append` and `findLast`). After every write both must
// read the same window, and the repository must hold exactly what the reference holds.
import {
  InMemoryChatMemoryRepository,
  MessageWindowChatMemory,
  type ChatMemoryRepository,
  type Message,
} from '../../../lib/index';

/** A small seeded PRNG (mulberry32), so that a failure names a seed that reproduces it. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The four required methods of a repository and nothing else. */
function requiredOnly(repository: ChatMemoryRepository): ChatMemoryRepository {
  return {
    findConversationIds: () => repository.findConversationIds(),
    findByConversationId: (id) => repository.findByConversationId(id),
    saveAll: (id, messages) => repository.saveAll(id, messages),
    deleteByConversationId: (id) => repository.deleteByConversationId(id),
  };
}

/** One random write: what a memory advisor (or a summarizing one) hands `add`. */
function randomAdd(next: () => number, step: number): Message[] {
  const pick = next();
  const id = `s${step}`;
  if (pick < 0.08) return [{ role: 'system', content: `system ${id}` }];
  if (pick < 0.12) {
    return [
      { role: 'system', content: `rules ${id}` },
      { role: 'system', content: `<conversation-summary>\nsummary ${id}\n</conversation-summary>` },
    ];
  }
  if (pick < 0.2) return [{ role: 'assistant', content: `alone ${id}` }];
  if (pick < 0.25) return [{ role: 'tool', toolCallId: `orphan-${id}`, name: 'f', content: 'x' }];
  const turn: Message[] = [{ role: 'user', content: `user ${id}` }];
  const rounds = Math.floor(next() * 4); // 0–3 tool rounds, sometimes longer than the window
  for (let r = 0; r < rounds; r++) {
    const calls = 1 + Math.floor(next() * 3);
    turn.push({
      role: 'assistant',
      content: '',
      toolCalls: Array.from({ length: calls }, (_, c) => ({
        id: `${id}-${r}-${c}`,
        name: 'f',
        arguments: '{}',
      })),
    });
    for (let c = 0; c < calls; c++)
      turn.push({ role: 'tool', toolCallId: `${id}-${r}-${c}`, name: 'f', content: `r${c}` });
  }
  turn.push({ role: 'assistant', content: `answer ${id}` });
  // Sometimes the turn arrives in two writes (a user message saved before the answer).
  return next() < 0.15 ? turn.slice(0, 1 + Math.floor(next() * (turn.length - 1))) : turn;
}

/**
 * Runs `conversations` random conversations of `steps` writes each, with windows of 1 to
 * 12 messages, and checks after every write that the memory over `repository` reads what
 * the reference reads and stores what it stores.
 */
export async function checkWindowEquivalence(
  repository: ChatMemoryRepository,
  conversations: number,
  steps: number,
  seed = 1,
): Promise<void> {
  const next = random(seed);
  const reference = requiredOnly(new InMemoryChatMemoryRepository());
  for (let c = 0; c < conversations; c++) {
    const maxMessages = 1 + Math.floor(next() * 12);
    const old = new MessageWindowChatMemory({ maxMessages, repository: reference });
    const now = new MessageWindowChatMemory({ maxMessages, repository });
    const id = `eq-${seed}-${c}`;
    for (let step = 0; step < steps; step++) {
      const added = randomAdd(next, step);
      await old.add(id, added);
      await now.add(id, added);
      const expected = await old.get(id);
      const context = { seed, conversation: c, step, maxMessages, added };
      expect({ ...context, window: await now.get(id) }).toEqual({ ...context, window: expected });
      expect({ ...context, stored: await repository.findByConversationId(id) }).toEqual({
        ...context,
        stored: await reference.findByConversationId(id),
      });
    }
  }
}
