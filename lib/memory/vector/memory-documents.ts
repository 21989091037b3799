import type { ChatResponse } from '../../core/chat-response.js';
import type { Message } from '../../core/message.js';
import type { Document } from '../../vector/document.js';

/** One finished (or abandoned) call, as `VectorStoreChatMemoryAdvisor` stores it. @internal */
export interface MemoryTurn {
  readonly conversationId: string;
  /** What the user added in this call (`turnInputs`). */
  readonly inputs: readonly Message[];
  /** The answer; `undefined` when the call failed or was unsubscribed. */
  readonly response: ChatResponse | undefined;
  /** The tool loop's messages of this call, in order. */
  readonly loopMessages: readonly Message[];
  readonly saveToolMessages: boolean;
  /** The turn's time (RxJS scheduler time, ms). */
  readonly at: number;
}

/**
 * The documents a turn is stored as: one per user message and one for the final answer,
 * each with `{ conversationId, role, at, seq }` metadata; with `saveToolMessages`, one per
 * tool round (the assistant's calls and their results rendered together), so a result is
 * never recalled without its call. Messages without text are skipped.
 * @internal
 * @param turn The turn.
 * @returns The documents, in conversation order.
 */
export function memoryDocuments(turn: MemoryTurn): Document[] {
  const texts: { role: string; text: string }[] = [];
  for (const message of turn.inputs) {
    if (message.role === 'user') texts.push({ role: 'user', text: message.content });
  }
  const { response } = turn;
  if (response !== undefined && response.finishReason !== 'error') {
    if (turn.saveToolMessages) texts.push(...toolRounds(turn.loopMessages));
    texts.push({ role: 'assistant', text: finalText(response, turn) });
  }
  const id = `${turn.conversationId}:${turn.at}:${randomSuffix()}`;
  return texts
    .filter(({ text }) => text.trim() !== '')
    .map(({ role, text }, seq) => ({
      id: `${id}:${seq}`,
      text,
      metadata: { conversationId: turn.conversationId, role, at: turn.at, seq },
    }));
}

/** Each assistant tool-call message with the results that follow it, as one text. */
function toolRounds(messages: readonly Message[]): { role: string; text: string }[] {
  const rounds: { role: string; text: string }[] = [];
  for (const message of messages) {
    if (message.role === 'assistant' && message.toolCalls !== undefined) {
      const calls = message.toolCalls.map((call) => `called ${call.name}(${call.arguments})`);
      const said = message.content.trim() === '' ? [] : [message.content];
      rounds.push({ role: 'tool', text: [...said, ...calls].join('\n') });
    } else if (message.role === 'tool') {
      const round = rounds[rounds.length - 1];
      // A result joins its call's round; one whose call is not in this turn is left out.
      if (round !== undefined) round.text += `\n${message.name} returned: ${message.content}`;
    }
  }
  return rounds;
}

/** The answer's text; with stored tool rounds, without the text the rounds already hold. */
function finalText(response: ChatResponse, turn: MemoryTurn): string {
  if (!turn.saveToolMessages) return response.text;
  let earlier = '';
  for (const message of turn.loopMessages)
    if (message.role === 'assistant') earlier += message.content;
  return earlier !== '' && response.text.startsWith(earlier)
    ? response.text.slice(earlier.length)
    : response.text;
}

function randomSuffix(): string {
  return Math.random().toString(36).slice(2, 10);
}
