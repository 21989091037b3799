import type { Message, SystemMessage } from '../core/message.js';

/** How a stored summary starts: the marker that tells it from the call's own system messages. */
const OPEN = '<conversation-summary>\n';
const CLOSE = '\n</conversation-summary>';
const PREAMBLE = 'Summary of the earlier part of this conversation:\n';

/**
 * The system message that stores (and sends) a conversation's running summary.
 * @internal
 */
export function summaryMessage(text: string): SystemMessage {
  return { role: 'system', content: `${OPEN}${PREAMBLE}${text}${CLOSE}` };
}

/** Whether a message is a stored summary. @internal */
export function isSummaryMessage(message: Message): message is SystemMessage {
  return message.role === 'system' && message.content.startsWith(OPEN);
}

/** The summary text of a conversation's stored messages, if it has one. @internal */
export function summaryOf(messages: readonly Message[]): string | undefined {
  const found = messages.find(isSummaryMessage);
  if (found === undefined) return undefined;
  const body = found.content.slice(OPEN.length);
  const text = body.startsWith(PREAMBLE) ? body.slice(PREAMBLE.length) : body;
  return text.endsWith(CLOSE) ? text.slice(0, -CLOSE.length) : text;
}

/**
 * The non-system messages of `before` that are gone from `after` (a window drops from the
 * front only): the longest prefix of `before` whose remainder starts `after`.
 * @internal
 */
export function droppedFrom(before: readonly Message[], after: readonly Message[]): Message[] {
  const kept = before.filter((m) => m.role !== 'system').map((m) => JSON.stringify(m));
  const now = after.filter((m) => m.role !== 'system').map((m) => JSON.stringify(m));
  const others = before.filter((m) => m.role !== 'system');
  for (let k = 0; k < kept.length; k++) {
    let matches = true;
    for (let i = k; i < kept.length && i - k < now.length; i++) {
      if (kept[i] !== now[i - k]) {
        matches = false;
        break;
      }
    }
    if (matches && now.length > 0) return others.slice(0, k);
  }
  return others;
}

/**
 * Messages as the lines a summarizer reads: `user: …`, `assistant: …`, tool calls with
 * their arguments, tool results with the tool's name.
 * @internal
 */
export function transcriptText(messages: readonly Message[]): string {
  const lines: string[] = [];
  for (const message of messages) {
    switch (message.role) {
      case 'system':
      case 'user':
        lines.push(`${message.role}: ${message.content}`);
        break;
      case 'assistant':
        if (message.content !== '') lines.push(`assistant: ${message.content}`);
        for (const call of message.toolCalls ?? [])
          lines.push(`assistant called ${call.name}(${call.arguments})`);
        break;
      case 'tool':
        lines.push(
          `${message.name} ${message.isError === true ? 'failed' : 'returned'}: ${message.content}`,
        );
        break;
      default: {
        const unknown: never = message;
        void unknown;
      }
    }
  }
  return lines.join('\n');
}
