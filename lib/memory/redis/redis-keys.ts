import { DELETE_SCRIPT, READ_SCRIPT } from './redis-chat-memory-scripts.js';

/**
 * The keys of `RedisChatMemoryRepository` under one prefix, and the `EVAL` commands that
 * pass them to its scripts (see redis-chat-memory-scripts.ts for what each key holds).
 * @internal
 */
export class RedisKeys {
  /** @param prefix Prefix of every key. */
  constructor(readonly prefix: string) {}

  /** The hash of a conversation: its version and leading system messages. */
  conversation(conversationId: string): string {
    return `${this.prefix}conversation:${conversationId}`;
  }

  /** The list of a conversation's messages; `messages:` never collides with `conversation:`. */
  list(conversationId: string): string {
    return `${this.prefix}messages:${conversationId}`;
  }

  /** The set of stored conversation ids. */
  ids(): string {
    return `${this.prefix}conversations`;
  }

  /** A write script on one conversation (the four keys, the id, then `args`). */
  evalArgs(script: string, conversationId: string, args: string[]): string[] {
    return [
      'EVAL',
      script,
      '4',
      this.conversation(conversationId),
      this.ids(),
      `${this.prefix}version`,
      this.list(conversationId),
      conversationId,
      ...args,
    ];
  }

  /** The read script; `newest`: how many list rows ('' for all). */
  readArgs(conversationId: string, newest: string): string[] {
    return [
      'EVAL',
      READ_SCRIPT,
      '2',
      this.conversation(conversationId),
      this.list(conversationId),
      newest,
    ];
  }

  /** The delete script. */
  deleteArgs(conversationId: string): string[] {
    return [
      'EVAL',
      DELETE_SCRIPT,
      '3',
      this.conversation(conversationId),
      this.ids(),
      this.list(conversationId),
      conversationId,
    ];
  }
}
