/**
 * One part of a UI message, as the AI SDK's `UIMessage` has it (`text`, `reasoning`,
 * `tool-<name>`, `dynamic-tool`, `file`, `data-<name>`, `source-url`, `step-start`, …).
 * Structural, so the library does not depend on the `ai` package.
 * @example
 * ```ts
 * import type { UiMessagePart } from 'rx-advisors/sse';
 * const part: UiMessagePart = { type: 'text', text: 'Hi' };
 * ```
 */
export interface UiMessagePart {
  readonly type: string;
  readonly [key: string]: unknown;
}

/**
 * A UI message as `useChat` sends it (the AI SDK's `UIMessage`, structurally).
 * @example
 * ```ts
 * import type { UiMessage } from 'rx-advisors/sse';
 * const message: UiMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Hi' }] };
 * ```
 */
export interface UiMessage {
  readonly id?: string;
  readonly role: 'system' | 'user' | 'assistant';
  readonly parts: readonly UiMessagePart[];
}
