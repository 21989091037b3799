import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import { ToolNotFoundError } from '../errors/tool-not-found-error.js';
import type { Tool } from '../core/tool.js';

/**
 * Options of {@link ToolRegistry}.
 * @example
 * ```ts
 * import { ToolRegistry } from 'rx-advisors';
 * const registry = new ToolRegistry({ tools: [getTime, getWeather] });
 * ```
 */
export interface ToolRegistryOptions {
  /** Tools to register right away. */
  tools?: readonly Tool[];
}

/**
 * Tools by name. Give it to a client with `defaultToolRegistry(registry)` and pick tools
 * per call with `prompt().toolNames('getTime', ...)`.
 *
 * @example
 * ```ts
 * import { ChatClient, ToolRegistry } from 'rx-advisors';
 *
 * const registry = new ToolRegistry({ tools: [getTime, getWeather] });
 * const client = ChatClient.builder(model).defaultToolRegistry(registry).build();
 * client.prompt('What time is it in Paris?').toolNames('getTime').call().content();
 * ```
 */
export class ToolRegistry {
  private readonly byName = new Map<string, Tool>();

  /** @param options Tools to register. */
  constructor(options: ToolRegistryOptions = {}) {
    for (const tool of options.tools ?? []) this.register(tool);
  }

  /**
   * Adds tools; a second tool with a name already registered is an error.
   * @param tools Tools to add.
   * @returns this registry.
   */
  register(...tools: Tool[]): this {
    for (const tool of tools) {
      if (typeof tool?.name !== 'string' || typeof tool.execute !== 'function') {
        throw new InvalidOptionsError({
          option: 'tools',
          value: tool,
          expected: 'tools created with tool()',
        });
      }
      if (this.byName.has(tool.name)) {
        throw new InvalidOptionsError({
          option: 'tools',
          value: tool.name,
          expected: 'unique tool names (this name is registered already)',
        });
      }
      this.byName.set(tool.name, tool);
    }
    return this;
  }

  /**
   * @param name A tool name.
   * @returns The tool, or `undefined` when none has that name.
   */
  get(name: string): Tool | undefined {
    return this.byName.get(name);
  }

  /**
   * @param name A tool name.
   * @returns Whether a tool of that name is registered.
   */
  has(name: string): boolean {
    return this.byName.has(name);
  }

  /**
   * The tools of these names, in this order.
   * @param names Registered names.
   * @returns The tools.
   * @throws ToolNotFoundError for a name that is not registered.
   */
  pick(...names: string[]): Tool[] {
    return names.map((name) => {
      const found = this.byName.get(name);
      if (found === undefined)
        throw new ToolNotFoundError({ toolName: name, available: this.names });
      return found;
    });
  }

  /** The registered names, in registration order. */
  get names(): string[] {
    return [...this.byName.keys()];
  }

  /** The registered tools, in registration order. */
  get tools(): Tool[] {
    return [...this.byName.values()];
  }
}
