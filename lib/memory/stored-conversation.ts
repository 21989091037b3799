import type { Message } from '../core/message.js';
import { appendTrimFrom, leadingSystemCount } from './append-window.js';
import { copyMessage } from './copy-message.js';
import { windowStart } from './message-window.js';

/**
 * One conversation of `InMemoryChatMemoryRepository`: its messages (copies), the leading
 * system ones first, and the index where the kept others begin. A trim moves that index;
 * the dropped messages are cut out of the array only once they are as many as the kept
 * ones, so an append costs what it adds and drops, not the conversation.
 * @internal
 */
export class StoredConversation {
  private readonly messages: Message[];
  private readonly systems: number;
  private head: number;

  /** @param messages The conversation (copied). */
  constructor(messages: readonly Message[]) {
    this.messages = messages.map(copyMessage);
    this.systems = leadingSystemCount(this.messages);
    this.head = this.systems;
  }

  /** How many messages are kept. */
  get size(): number {
    return this.systems + this.messages.length - this.head;
  }

  /** @returns Copies of the leading system messages and of the newest `limit` others. */
  last(limit: number): Message[] {
    const copies: Message[] = [];
    for (let i = 0; i < this.systems; i++) copies.push(copyMessage(this.messages[i]));
    const from = Math.max(this.head, this.messages.length - limit);
    for (let i = from; i < this.messages.length; i++) copies.push(copyMessage(this.messages[i]));
    return copies;
  }

  /** Appends copies of `added` and trims to `keepLast` as `ChatMemoryRepository.append` says. */
  append(added: readonly Message[], keepLast: number | undefined): void {
    for (const message of added) this.messages.push(copyMessage(message));
    const from = appendTrimFrom(this.systems, this.messages.length - this.head, keepLast);
    if (from === undefined) return;
    this.head = windowStart(this.messages, this.head + from);
    const dropped = this.head - this.systems;
    if (dropped > 64 && dropped * 2 > this.messages.length - this.systems) {
      this.messages.splice(this.systems, dropped);
      this.head = this.systems;
    }
  }
}
