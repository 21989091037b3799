import { createHash } from 'node:crypto';
import { DELETE_SCRIPT, READ_SCRIPT } from './redis-chat-memory-scripts.js';

/** Each script by the SHA-1 Redis knows it by. */
const scripts = new Map<string, string>();
const shas = new Map<string, string>();

/** The SHA-1 of a script, computed once. */
function scriptSha(script: string): string {
  let sha = shas.get(script);
  if (sha === undefined) {
    sha = createHash('sha1').update(script).digest('hex');
    shas.set(script, sha);
    scripts.set(sha, script);
  }
  return sha;
}

/**
 * The same command as `EVAL` with the script's text, for a server that does not know the
 * script (`NOSCRIPT`: restarted, `SCRIPT FLUSH`); `undefined` for any other command.
 * @internal
 */
export function withScriptText(args: readonly string[]): string[] | undefined {
  const script = args[0] === 'EVALSHA' ? scripts.get(args[1] ?? '') : undefined;
  return script === undefined ? undefined : ['EVAL', script, ...args.slice(2)];
}

/**
 * The keys of `RedisChatMemoryRepository` under one prefix, and the `EVALSHA` commands that
 * pass them to its scripts (the server keeps a script by its hash: a call sends 40
 * characters instead of the script) (see redis-chat-memory-scripts.ts for what each key holds).
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
      'EVALSHA',
      scriptSha(script),
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
      'EVALSHA',
      scriptSha(READ_SCRIPT),
      '2',
      this.conversation(conversationId),
      this.list(conversationId),
      newest,
    ];
  }

  /** The delete script. */
  deleteArgs(conversationId: string): string[] {
    return [
      'EVALSHA',
      scriptSha(DELETE_SCRIPT),
      '3',
      this.conversation(conversationId),
      this.ids(),
      this.list(conversationId),
      conversationId,
    ];
  }
}
