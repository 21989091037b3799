import {
  ChatMemoryError,
  MessageWindowChatMemory,
  type ChatMemoryRepository,
} from '../../../lib/index';
import { turn, wholeTurns } from './chat-memory-repository-contract';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Writes turns to `conversations` conversations in a loop while `outage` stops and starts
 * the server, then checks what a user would: every failure is a ChatMemoryError, no turn
 * is half-written, every acknowledged turn is stored, and writing works again.
 */
export async function writeThroughOutage(
  repository: ChatMemoryRepository,
  outage: () => Promise<void>,
  conversations = 8,
): Promise<{ acknowledged: number; failures: number }> {
  const memory = new MessageWindowChatMemory({ maxMessages: 100_000, repository });
  const ids = Array.from({ length: conversations }, (_, i) => `outage-${i}`);
  const acknowledged = new Map(ids.map((id) => [id, [] as string[]]));
  const failures: unknown[] = [];
  let writing = true;
  const writers = ids.map(async (id) => {
    for (let i = 0; writing; i++) {
      try {
        await memory.add(id, turn(id, i));
        acknowledged.get(id)?.push(`${id}-${i}`);
      } catch (error) {
        failures.push(error);
        await sleep(20);
      }
    }
  });
  await sleep(150);
  await outage();
  await sleep(150);
  writing = false;
  await Promise.all(writers);

  expect(failures.length).toBeGreaterThan(0);
  for (const failure of failures) expect(ChatMemoryError.isInstance(failure)).toBe(true);
  let total = 0;
  for (const id of ids) {
    const names = wholeTurns(await repository.findByConversationId(id));
    const acks = acknowledged.get(id) ?? [];
    total += acks.length;
    // Every acknowledged turn is there; a turn whose answer was lost with the connection
    // may be there too (it committed), and turns stay in the order they were written.
    for (const name of acks) expect(names).toContain(name);
    const indexes = names.map((name) => Number(name.slice(id.length + 1)));
    expect(indexes).toEqual([...indexes].sort((a, b) => a - b));
  }
  await memory.add('after-outage', turn('after', 0));
  expect(await repository.findByConversationId('after-outage')).toEqual(turn('after', 0));
  return { acknowledged: total, failures: failures.length };
}
