/**
 * Which tools the model may or must call.
 * `{ type: 'tool', name }` forces one tool.
 */
export type ToolChoice = 'auto' | 'none' | 'required' | { type: 'tool'; name: string };

/**
 * The answer format asked of the model. `json-schema` asks for the provider's native
 * structured output (OpenAI `json_schema`, Anthropic's equivalent).
 */
export type ResponseFormat =
  | { type: 'text' }
  | { type: 'json' }
  | {
      type: 'json-schema';
      schema: Record<string, unknown>;
      name?: string;
      description?: string;
      strict?: boolean;
    };

/**
 * Model options of one call. Provider adapters map what they support and ignore the rest;
 * `extra` is merged into the provider's request body as-is.
 *
 * @example
 * ```ts
 * import type { ChatOptions } from 'rx-advisors';
 * const options: ChatOptions = { model: 'gpt-4o-mini', temperature: 0, maxTokens: 500 };
 * ```
 */
export interface ChatOptions {
  model?: string;
  temperature?: number;
  topP?: number;
  maxTokens?: number;
  stop?: string[];
  toolChoice?: ToolChoice;
  responseFormat?: ResponseFormat;
  /** Provider-specific request fields, merged into the request body unchanged. */
  extra?: Record<string, unknown>;
}
