import { Subject, type Observable } from 'rxjs';
import {
  InMemoryChatMemoryRepository,
  type ChatChunk,
  type ChatMemoryRepository,
  type Message,
} from '../../../lib/index';
import { MockChatModel } from '../../../lib/testing/index';

/** A model whose every call is a Subject the test drives by hand. */
export function controlledModel(): { model: MockChatModel; calls: Subject<ChatChunk>[] } {
  const calls: Subject<ChatChunk>[] = [];
  const model = MockChatModel.respond((): Observable<ChatChunk> => {
    const call = new Subject<ChatChunk>();
    calls.push(call);
    return call;
  });
  return { model, calls };
}

export const text = (value: string): ChatChunk => ({ type: 'text-delta', text: value });
export const finish: ChatChunk = { type: 'finish', reason: 'stop' };

/** Lets every pending Promise callback and I/O callback run. */
export const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * An in-memory repository that yields to the event loop inside every operation, so that
 * unserialised read-modify-write cycles would interleave and lose messages.
 */
export class YieldingRepository implements ChatMemoryRepository {
  readonly inner = new InMemoryChatMemoryRepository();
  saves = 0;

  async findConversationIds(): Promise<string[]> {
    await settle();
    return this.inner.findConversationIds();
  }

  async findByConversationId(conversationId: string): Promise<Message[]> {
    await settle();
    return this.inner.findByConversationId(conversationId);
  }

  async saveAll(conversationId: string, messages: readonly Message[]): Promise<void> {
    await settle();
    this.saves++;
    return this.inner.saveAll(conversationId, messages);
  }

  async deleteByConversationId(conversationId: string): Promise<void> {
    await settle();
    return this.inner.deleteByConversationId(conversationId);
  }
}
