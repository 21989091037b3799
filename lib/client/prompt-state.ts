import type { Advisor } from '../advisor-api/advisor.js';
import type { ChatOptions } from '../core/chat-options.js';
import type { MediaPart } from '../core/media-part.js';
import type { Message } from '../core/message.js';
import type { Tool } from '../core/tool.js';

/**
 * What a `PromptSpec` describes (each method returns a spec with a new state).
 * @internal
 */
export interface PromptState {
  readonly system: string | undefined;
  readonly messages: readonly Message[];
  readonly user: string | undefined;
  readonly userMedia: readonly MediaPart[];
  readonly tools: readonly Tool[];
  readonly toolNames: readonly string[];
  readonly toolContext: Readonly<Record<string, unknown>>;
  readonly advisors: readonly Advisor[];
  readonly advisorParams: Readonly<Record<string, unknown>>;
  readonly options: ChatOptions;
}

/** No media: `user(text)`'s default. @internal */
export const NO_MEDIA: readonly MediaPart[] = [];

/**
 * The state of `client.prompt()`: what a call does not set is the client's; the request
 * takes the client's own objects where a field is still one of these.
 * @internal
 */
export const EMPTY: PromptState = {
  system: undefined,
  messages: [],
  user: undefined,
  userMedia: NO_MEDIA,
  tools: [],
  toolNames: [],
  toolContext: {},
  advisors: [],
  advisorParams: {},
  options: {},
};

/**
 * The state of `client.prompt(text)`, written out in one object.
 * @internal
 * @example
 * ```ts
 * userState('Hi').user; // 'Hi'
 * ```
 * @param text The user text.
 * @returns The state.
 */
export function userState(text: string): PromptState {
  return {
    system: undefined,
    messages: EMPTY.messages,
    user: text,
    userMedia: NO_MEDIA,
    tools: EMPTY.tools,
    toolNames: EMPTY.toolNames,
    toolContext: EMPTY.toolContext,
    advisors: EMPTY.advisors,
    advisorParams: EMPTY.advisorParams,
    options: EMPTY.options,
  };
}

/**
 * A call's context: the default advisor params, then the call's own over them.
 * @internal
 * @example
 * ```ts
 * contextOf({ a: 1 }, { a: 2 }).get('a'); // 2
 * ```
 * @param defaults The client's advisor params.
 * @param own The call's advisor params (`EMPTY.advisorParams` when it sets none).
 * @returns A new context Map.
 */
export function contextOf(
  defaults: Readonly<Record<string, unknown>>,
  own: Readonly<Record<string, unknown>>,
): Map<string, unknown> {
  const context = new Map<string, unknown>();
  // Both are plain objects the builders spread (own keys only): `for…in` lists their keys
  // without allocating an array per call, as `Object.entries` did.
  for (const key in defaults) context.set(key, defaults[key]);
  if (own !== EMPTY.advisorParams) for (const key in own) context.set(key, own[key]);
  return context;
}
