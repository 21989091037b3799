/** A JSON Schema object, as sent to a provider. */
export type JsonSchema = Record<string, unknown>;

/**
 * What a model is told about a tool: its name, what it does and its arguments' JSON
 * Schema. Provider adapters need nothing more; `Tool` adds execution.
 *
 * @example
 * ```ts
 * import type { ToolDefinition } from 'rx-advisors';
 * const def: ToolDefinition = {
 *   name: 'getTime',
 *   description: 'The current time in a city',
 *   inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
 * };
 * ```
 */
export interface ToolDefinition {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
}
