import type { MediaPart } from './media-part.js';

/**
 * A tool call the model asked for.
 *
 * @example
 * ```ts
 * import type { ToolCall } from 'rx-advisors';
 *
 * const call: ToolCall = { id: 'call_1', name: 'getTime', arguments: '{"city":"Paris"}' };
 * ```
 */
export interface ToolCall {
  /** The provider's id for this call; a tool result answers it with `toolCallId`. */
  id: string;
  /** The tool's name. */
  name: string;
  /** The JSON text of the arguments, exactly as the model sent it. */
  arguments: string;
  /**
   * What the provider attached to the call and needs back with it in the next request,
   * keyed by provider, opaque (the AI SDK bridge: Gemini's `{ google: { thoughtSignature } }`).
   * Adapters that do not know a key ignore it.
   */
  providerMetadata?: ProviderMetadata;
}

/**
 * Opaque data a provider attached to a tool call or a reasoning block, keyed by provider
 * name (the AI SDK's `providerMetadata` / `providerOptions` shape); plain JSON.
 *
 * @example
 * ```ts
 * import type { ProviderMetadata } from 'rx-advisors';
 *
 * const metadata: ProviderMetadata = { google: { thoughtSignature: 'EqsFCqgF…' } };
 * ```
 */
export type ProviderMetadata = Record<string, Record<string, unknown>>;

/**
 * One block of model reasoning, kept so that providers that require it can be sent it back
 * in the next round: Anthropic extended thinking (`signature`, `redactedData`) and OpenAI
 * Responses reasoning items (`id`, `encryptedContent`). Each adapter sends back only the
 * parts it understands and ignores the fields of other providers.
 *
 * @example
 * ```ts
 * import type { ReasoningPart } from 'rx-advisors';
 *
 * // An Anthropic thinking block:
 * const thinking: ReasoningPart = { text: 'The user wants…', signature: 'EqQBCgIYAhIM…' };
 * // An OpenAI Responses reasoning item (asked for with `include: ['reasoning.encrypted_content']`):
 * const item: ReasoningPart = {
 *   text: '**Planning the calculation**',
 *   id: 'rs_0183…',
 *   encryptedContent: 'gAAAAABpPDIV…',
 * };
 * ```
 */
export interface ReasoningPart {
  /** The reasoning text (empty for redacted blocks); for OpenAI, the reasoning summary. */
  text: string;
  /** The provider's signature over the block, when it sends one (Anthropic). */
  signature?: string;
  /** Opaque redacted reasoning data, when the provider redacted the block (Anthropic). */
  redactedData?: string;
  /**
   * The provider's id of the reasoning item (OpenAI Responses: `rs_…`). The Responses
   * adapter sends a part back as a `reasoning` input item only when it has an id.
   *
   * @example
   * ```ts
   * import type { ReasoningPart } from 'rx-advisors';
   * const part: ReasoningPart = { text: '', id: 'rs_0183…' };
   * ```
   */
  id?: string;
  /**
   * The provider's encrypted reasoning (OpenAI Responses: the item's `encrypted_content`),
   * opaque and only meaningful to the provider that sent it. With it, the reasoning can be
   * sent back without server-side state (`store: false`, zero data retention).
   *
   * @example
   * ```ts
   * import type { ReasoningPart } from 'rx-advisors';
   * const part: ReasoningPart = { text: '', id: 'rs_0183…', encryptedContent: 'gAAAAABpPDIV…' };
   * ```
   */
  encryptedContent?: string;
  /**
   * What the provider attached to the block and needs back with it, keyed by provider
   * (the AI SDK bridge: `{ anthropic: { signature } }`, `{ google: { thoughtSignature } }`).
   */
  providerMetadata?: ProviderMetadata;
}

/**
 * A system instruction.
 * @example
 * ```ts
 * import type { SystemMessage } from 'rx-advisors';
 * const m: SystemMessage = { role: 'system', content: 'Answer in English.' };
 * ```
 */
export interface SystemMessage {
  role: 'system';
  content: string;
}

/**
 * A message from the user: text, and optionally images and files.
 * @example
 * ```ts
 * import type { UserMessage } from 'rx-advisors';
 * const m: UserMessage = { role: 'user', content: 'What time is it in Paris?' };
 * const withImage: UserMessage = {
 *   role: 'user',
 *   content: 'What is on this photo?',
 *   media: [{ mediaType: 'image/jpeg', data: { url: 'https://example.com/cat.jpg' } }],
 * };
 * ```
 */
export interface UserMessage {
  role: 'user';
  content: string;
  /** Images and files sent after the text (see `MediaPart`); absent or empty: text only. */
  media?: readonly MediaPart[];
}

/**
 * A message from the model: text and, optionally, the tool calls it asked for.
 * @example
 * ```ts
 * import type { AssistantMessage } from 'rx-advisors';
 * const m: AssistantMessage = {
 *   role: 'assistant',
 *   content: '',
 *   toolCalls: [{ id: 'call_1', name: 'getTime', arguments: '{"city":"Paris"}' }],
 * };
 * ```
 */
export interface AssistantMessage {
  role: 'assistant';
  content: string;
  toolCalls?: ToolCall[];
  /** Reasoning blocks to send back to providers that need them. */
  reasoning?: ReasoningPart[];
}

/**
 * A human decision on a tool call that waited for approval, sent with the next request
 * (see `docs/tool-calling.md`, "Approval"): it rides on a {@link ToolMessage} for the call
 * (`content: ''`), which the tool loop replaces with the call's real result (or its
 * denial) before any model sees it. `toolCall`, when given, must be the call exactly as
 * the model made it (an edited call is refused).
 * @example
 * ```ts
 * import type { ToolMessage } from 'rx-advisors';
 * const decision: ToolMessage = {
 *   role: 'tool',
 *   toolCallId: 'c1',
 *   name: 'deleteUser',
 *   content: '',
 *   approval: { approvalId: 'approval-c1', approved: false, reason: 'wrong user' },
 * };
 * ```
 */
export interface ToolApprovalResponse {
  /** The `approvalId` of the `tool-approval-request` chunk. */
  approvalId: string;
  approved: boolean;
  /** Why it was denied; the model sees "denied by the user: <reason>". */
  reason?: string;
  /** The call as the client saw it; must match the call in the conversation. */
  toolCall?: ToolCall;
}

/**
 * The result of one tool call, sent back to the model.
 * @example
 * ```ts
 * import type { ToolMessage } from 'rx-advisors';
 * const m: ToolMessage = { role: 'tool', toolCallId: 'call_1', name: 'getTime', content: '12:00' };
 * ```
 */
export interface ToolMessage {
  role: 'tool';
  toolCallId: string;
  name: string;
  content: string;
  /** `true` when the tool failed and `content` is the error text the model should see. */
  isError?: boolean;
  /** A decision on a call awaiting approval, not a result yet (the loop runs the call). */
  approval?: ToolApprovalResponse;
  /**
   * Images and files the tool returned with its text (a screenshot, a rendered page), for
   * providers whose tool results take them (Anthropic, OpenAI Responses, the AI SDK
   * bridge); OpenAI Chat Completions refuses them with an `UnsupportedMediaError`.
   */
  media?: readonly MediaPart[];
}

/**
 * A provider-neutral chat message, discriminated on `role`.
 * @example
 * ```ts
 * import type { Message } from 'rx-advisors';
 * const history: Message[] = [
 *   { role: 'system', content: 'Be brief.' },
 *   { role: 'user', content: 'Hi' },
 * ];
 * ```
 */
export type Message = SystemMessage | UserMessage | AssistantMessage | ToolMessage;

/** The `role` values of {@link Message}. */
export type MessageRole = Message['role'];
