import { MediaBudget, MEDIA_LIMITS_DEFAULTS, MEDIA_LIMITS_RULES } from '../core/media-limits.js';
import type { MediaPart } from '../core/media-part.js';
import { visibleUiParts } from './ui-guardrail-parts.js';
import type { Message, ToolMessage } from '../core/message.js';
import {
  Rules,
  validateOptions,
  withDefaults,
  type OptionRules,
} from '../core/validate-options.js';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import type { UiMessage, UiMessagePart } from './ui-message.js';
import { UiMessageStep } from './ui-message-step.js';
import { fileMedia } from './ui-file-media.js';

/**
 * Options of {@link uiMessagesToMessages}.
 * @example
 * ```ts partial
 * import type { UiMessagesToMessagesOptions } from 'rx-advisors/sse';
 * const options: UiMessagesToMessagesOptions = { messages: body.messages, history: 'memory' };
 * ```
 */
export interface UiMessagesToMessagesOptions {
  /** The client's messages (`useChat`'s request body `messages`). */
  messages: readonly UiMessage[];
  /**
   * Who holds the conversation: `'client'` (default) converts every message; `'memory'`
   * (a memory advisor holds it) takes only the new user message, the list's last one.
   */
  history?: 'client' | 'memory';
  /** Keep system messages the client sent; default `false` (a browser must not set the instructions). */
  allowSystem?: boolean;
  /** A file part as text for the model; default a line naming it, `undefined` drops it. */
  file?: (part: UiMessagePart) => string | undefined;
  /**
   * What a user message's file parts become: `'text'` (default) the `file` option's line;
   * `'media'` the message's `media` (a `data:…;base64,` URL inline, an `http(s)` URL by
   * reference, fetched by the provider; anything else goes through `file`). Opt in: it lets
   * the browser send images and files to the model, which the adapter may refuse with an
   * `UnsupportedMediaError`.
   */
  files?: 'text' | 'media';
  /** A data part as text for the model; default `undefined`: data parts are for the UI only. */
  data?: (part: UiMessagePart) => string | undefined;
  /** The most messages accepted from the client; default 1,000. */
  maxMessages?: number;
  /**
   * Accept approval decisions (`approval-responded` tool parts) with `history: 'client'`;
   * default `false`: the client holds the calls then, so it could forge a call and approve
   * it. With `history: 'memory'` decisions are always accepted (memory holds the calls).
   */
  clientApprovals?: boolean;
  /**
   * With `files: 'media'`, the largest one inline file (a `data:` URL) may be, in decoded
   * bytes; default 20 MiB. Measured from the URL's length, before anything is decoded; a
   * larger one fails with a `MediaLimitError`.
   */
  maxMediaPartBytes?: number;
  /** With `files: 'media'`, the most all inline files together may be; default 50 MiB. */
  maxMediaRequestBytes?: number;
}

const UI_MESSAGES_DEFAULTS = {
  history: 'client' as 'client' | 'memory',
  allowSystem: false,
  file: defaultFileText,
  files: 'text' as 'text' | 'media',
  data: (): string | undefined => undefined,
  maxMessages: 1000,
  clientApprovals: false,
  ...MEDIA_LIMITS_DEFAULTS,
} as const;

const UI_MESSAGES_RULES = {
  messages: Rules.custom('an array of UI messages ({ role, parts })', (value) =>
    Array.isArray(value),
  ),
  history: Rules.oneOf('client', 'memory'),
  allowSystem: Rules.boolean,
  file: Rules.func,
  files: Rules.oneOf('text', 'media'),
  data: Rules.func,
  maxMessages: Rules.integer(1),
  clientApprovals: Rules.boolean,
  ...MEDIA_LIMITS_RULES,
} as const satisfies OptionRules<UiMessagesToMessagesOptions>;

/**
 * Converts the AI SDK's UI messages (what `useChat` posts) to our `Message[]`: text and
 * reasoning parts; tool parts in every state (a finished call becomes an assistant tool call
 * and its tool result, `output-error` an error result, `output-denied` the tool loop's
 * denial text, `approval-responded` the call and its approval decision for the
 * `ToolCallingAdvisor` (see `clientApprovals`), a call without an outcome is left out so
 * providers never see an unanswered call); files and data parts
 * through the `file` and `data` options; an assistant message with several steps becomes
 * one assistant message per step, each followed by its results.
 *
 * @example
 * ```ts partial
 * import { uiMessagesToMessages } from 'rx-advisors/sse';
 * // With MessageChatMemoryAdvisor holding the conversation, take the new user message only:
 * const [question] = uiMessagesToMessages({ messages: body.messages, history: 'memory' });
 * client.prompt().messages(question).advisorParams({ conversationId: body.id }).stream();
 * ```
 * @param options The client's messages and how to read them.
 * @returns Our messages, in order.
 */
export function uiMessagesToMessages(options: UiMessagesToMessagesOptions): Message[] {
  const given = validateOptions(options, UI_MESSAGES_RULES);
  const settings = withDefaults(UI_MESSAGES_DEFAULTS, given);
  const { history, allowSystem, file, files, data, maxMessages, clientApprovals } = settings;
  const { messages } = options;
  if (messages.length > maxMessages) {
    throw new InvalidOptionsError({
      option: 'messages',
      value: `${messages.length} messages`,
      expected: `at most ${maxMessages} messages (raise maxMessages, or let memory hold the conversation)`,
    });
  }
  messages.forEach(checkMessage);
  const reader: PartReader = {
    file,
    data,
    clientApprovals,
    media: files === 'media',
    budget: new MediaBudget(settings),
  };
  if (history === 'memory') {
    const last = messages.at(-1);
    if (last?.role === 'assistant') {
      // The client answered the approval requests of the conversation's last round: memory
      // holds the calls, the request carries the decisions.
      const decisions = lastStepDecisions(last);
      if (decisions.length > 0) return decisions;
    }
    if (last?.role !== 'user') {
      throw new InvalidOptionsError({
        option: 'messages',
        value: last?.role,
        expected:
          "a list that ends with the new user message, or with the assistant message holding the approval decisions (history: 'memory')",
      });
    }
    return userMessages(last, reader);
  }
  const result: Message[] = [];
  for (const message of messages) {
    if (message.role === 'assistant') {
      // What a guardrail withdrew never goes back to the model.
      const parts = visibleUiParts(message.parts);
      result.push(
        ...assistantMessages(parts === message.parts ? message : { ...message, parts }, reader),
      );
    } else if (message.role === 'user') result.push(...userMessages(message, reader));
    else if (allowSystem) result.push({ role: 'system', content: texts(message, reader) });
  }
  return result;
}

interface PartReader {
  file: (part: UiMessagePart) => string | undefined;
  data: (part: UiMessagePart) => string | undefined;
  clientApprovals: boolean;
  /** User file parts become media (`files: 'media'`). */
  media: boolean;
  /** The media limits, counted over the whole list. */
  budget: MediaBudget;
}

/** The default text of a file part: its name and media type (never a data URL's content). */
function defaultFileText(part: UiMessagePart): string {
  const name = typeof part['filename'] === 'string' ? part['filename'] : 'unnamed';
  const url =
    typeof part['url'] === 'string' && !part['url'].startsWith('data:') ? ` ${part['url']}` : '';
  return `[file: ${name} (${String(part['mediaType'])})${url}]`;
}

function userMessages(message: UiMessage, reader: PartReader): Message[] {
  if (!reader.media) {
    const content = texts(message, reader);
    return content === '' ? [] : [{ role: 'user', content }];
  }
  const media: MediaPart[] = [];
  const parts = message.parts.filter((part) => {
    const converted = part.type === 'file' ? fileMedia(part, reader.budget) : undefined;
    if (converted !== undefined) media.push(converted);
    return converted === undefined;
  });
  const content = texts({ ...message, parts }, reader);
  if (media.length === 0) return content === '' ? [] : [{ role: 'user', content }];
  return [{ role: 'user', content, media }];
}

/** The text, file and data parts of a message as one text, a line each. */
function texts(message: UiMessage, reader: PartReader): string {
  const lines: string[] = [];
  for (const part of message.parts) {
    const line = partText(part, reader);
    if (line !== undefined) lines.push(line);
  }
  return lines.join('\n');
}

function partText(part: UiMessagePart, reader: PartReader): string | undefined {
  if (part.type === 'text') return typeof part['text'] === 'string' ? part['text'] : undefined;
  if (part.type === 'file') return reader.file(part);
  if (part.type.startsWith('data-')) return reader.data(part);
  return undefined;
}

/** One assistant message per step, each followed by the results of its tool calls. */
function assistantMessages(message: UiMessage, reader: PartReader): Message[] {
  const out: Message[] = [];
  let step = new UiMessageStep(reader.clientApprovals);
  for (const part of message.parts) {
    if (part.type === 'step-start' || (step.hasTools && isContent(part))) {
      step.flushInto(out);
      step = new UiMessageStep(reader.clientApprovals);
    }
    if (part.type === 'reasoning') {
      step.reasoning(part);
    } else if (part.type === 'dynamic-tool' || part.type.startsWith('tool-')) {
      const name = part.type === 'dynamic-tool' ? String(part['toolName']) : part.type.slice(5);
      step.tool(name, part);
    } else {
      const line = partText(part, reader);
      if (line !== undefined) step.text(line);
    }
  }
  step.flushInto(out);
  return out;
}

/** The decisions of an assistant message's last step (none when it has none). */
function lastStepDecisions(message: UiMessage): ToolMessage[] {
  let start = message.parts.length - 1;
  while (start >= 0 && message.parts[start].type !== 'step-start') start--;
  const step = new UiMessageStep(true);
  for (const part of message.parts.slice(start + 1)) {
    if (part.type === 'dynamic-tool') step.tool(String(part['toolName']), part);
    else if (part.type.startsWith('tool-')) step.tool(part.type.slice(5), part);
  }
  return step.decisions();
}

function isContent(part: UiMessagePart): boolean {
  return part.type === 'text' || part.type === 'reasoning';
}

function checkMessage(message: UiMessage, index: number): void {
  const given = message as unknown as Record<string, unknown> | null;
  const ok =
    typeof given === 'object' &&
    given !== null &&
    ['system', 'user', 'assistant'].includes(given['role'] as string) &&
    Array.isArray(given['parts']) &&
    (given['parts'] as unknown[]).every(
      (part) =>
        typeof part === 'object' &&
        part !== null &&
        typeof (part as { type?: unknown }).type === 'string',
    );
  if (!ok) {
    throw new InvalidOptionsError({
      option: `messages[${index}]`,
      value: message,
      expected: "a UI message: { role: 'system' | 'user' | 'assistant', parts: [{ type, … }] }",
    });
  }
}
