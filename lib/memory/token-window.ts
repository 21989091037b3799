import type { MediaPart } from '../core/media-part.js';
import type { Message } from '../core/message.js';
import { inlineMediaBytes } from './stored-media.js';

/**
 * What one image or file counts as, in characters: 6,400, that is 1,600 tokens at the
 * default 4 characters a token (about what Anthropic and OpenAI charge for a
 * 1,000 × 1,000 pixel image, or a page of a PDF). Inline `text/*` files count their size.
 * @internal
 */
export const MEDIA_PART_CHARACTERS = 6400;

/**
 * The characters of a message that the model reads: its text, its tool calls' names and
 * arguments, its reasoning, a tool result's name, and its media (see
 * {@link MEDIA_PART_CHARACTERS}).
 * @internal
 * @param message Any message.
 * @returns A character count (at least 1, for the message's framing).
 */
export function messageCharacters(message: Message): number {
  let characters = message.content.length;
  if (message.role === 'assistant') {
    for (const call of message.toolCalls ?? [])
      characters += call.name.length + call.arguments.length;
    for (const part of message.reasoning ?? []) characters += part.text.length;
  } else if (message.role === 'tool') {
    characters += message.name.length + mediaCharacters(message.media);
  } else if (message.role === 'user') {
    characters += mediaCharacters(message.media);
  }
  return Math.max(1, characters);
}

function mediaCharacters(media: readonly MediaPart[] | undefined): number {
  let characters = 0;
  for (const part of media ?? []) {
    const isText = part.mediaType.toLowerCase().startsWith('text/') && !('url' in part.data);
    characters += isText ? inlineMediaBytes([part]) : MEDIA_PART_CHARACTERS;
  }
  return characters;
}

/**
 * The messages a window of `maxTokens` keeps: every system message (placed first), then
 * the newest whole turns that fit. A turn starts at a user message and holds everything up
 * to the next one (the answer, its tool calls and their results), so a call is never kept
 * without its results. The newest turn is always kept, even when it alone is over budget.
 *
 * ```
 * maxTokens 100, tokens:  [sys 10, u1 30, a1 30, u2 20, a2(call) 10, t2 10, a2' 10]
 * kept:                   [sys, u2, a2(call), t2, a2']        (u1's turn would make 110)
 * ```
 * @internal
 * @param messages The whole conversation, oldest first.
 * @param maxTokens The budget.
 * @param tokensOf The (estimated) tokens of one message.
 * @returns The kept messages and how many non-system messages were dropped from the front.
 */
export function tokenWindow(
  messages: readonly Message[],
  maxTokens: number,
  tokensOf: (message: Message) => number,
): { kept: Message[]; dropped: number } {
  const system: Message[] = [];
  const others: Message[] = [];
  let room = maxTokens;
  for (const message of messages) {
    if (message.role === 'system') {
      system.push(message);
      room -= tokensOf(message);
    } else {
      others.push(message);
    }
  }
  let start = others.length;
  let turn = 0;
  for (let i = others.length - 1; i >= 0; i--) {
    turn += tokensOf(others[i]);
    if (others[i].role !== 'user' && i > 0) continue;
    // `i` begins a turn (a user message, or the conversation's first message).
    if (start < others.length && turn > room) break;
    room -= turn;
    turn = 0;
    start = i;
  }
  return { kept: [...system, ...others.slice(start)], dropped: start };
}
