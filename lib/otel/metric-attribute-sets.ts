import type { Attributes } from '@opentelemetry/api';
import { GenAi } from './gen-ai-conventions.js';

/**
 * The metric attributes of a model call, the same objects for every call and round that
 * asks the same model of the same provider and hears back from the same one.
 * @internal
 */
export interface ModelMetricAttributes {
  /** Operation, provider, request model: the time to first chunk. */
  readonly requested: Attributes;
  /** Plus the response model: the duration. */
  readonly responded: Attributes;
  /** Plus `gen_ai.token.type` `input`. */
  readonly input: Attributes;
  /** Plus `gen_ai.token.type` `output`. */
  readonly output: Attributes;
}

/** Past this many sets per kind, sets are made per use instead of kept (bounded memory). */
const MAX_KEPT = 256;

/**
 * The metric attribute sets of one meter's instruments, made once and kept (the metric SDK
 * still hashes them on every record, but nothing is built per call or per round): one per
 * provider for the call, one per provider, request and response model for a model call,
 * one per tool name. Lookups go through nested maps (no key string per lookup).
 * @internal
 * @example
 * ```ts
 * const sets = new MetricAttributeSets();
 * sets.call('openai') === sets.call('openai'); // true
 * ```
 */
export class MetricAttributeSets {
  private readonly calls = new Map<string | undefined, Attributes>();
  private readonly models = new Map<
    string | undefined,
    Map<string | undefined, Map<string | undefined, ModelMetricAttributes>>
  >();
  private readonly tools = new Map<string, Attributes>();
  private modelCount = 0;

  /**
   * A call's attributes: operation `chat` and the provider.
   * @param provider The provider, when known.
   * @returns The set.
   */
  call(provider: string | undefined): Attributes {
    let set = this.calls.get(provider);
    if (set === undefined) {
      set = { [GenAi.OPERATION_NAME]: GenAi.OPERATION_CHAT };
      if (provider !== undefined) set[GenAi.PROVIDER_NAME] = provider;
      if (this.calls.size < MAX_KEPT) this.calls.set(provider, set);
    }
    return set;
  }

  /**
   * A model call's attribute sets.
   * @param provider The provider, when known.
   * @param requested The request's model, when set.
   * @param responded The response's model, when reported.
   * @returns The sets.
   */
  model(
    provider: string | undefined,
    requested: string | undefined,
    responded: string | undefined,
  ): ModelMetricAttributes {
    let byRequested = this.models.get(provider);
    let byResponded = byRequested?.get(requested);
    let sets = byResponded?.get(responded);
    if (sets !== undefined) return sets;
    const base: Attributes = { ...this.call(provider) };
    if (requested !== undefined) base[GenAi.REQUEST_MODEL] = requested;
    const withResponse: Attributes =
      responded === undefined ? base : { ...base, [GenAi.RESPONSE_MODEL]: responded };
    sets = {
      requested: base,
      responded: withResponse,
      input: { ...withResponse, [GenAi.TOKEN_TYPE]: 'input' },
      output: { ...withResponse, [GenAi.TOKEN_TYPE]: 'output' },
    };
    if (this.modelCount >= MAX_KEPT) return sets;
    this.modelCount++;
    if (byRequested === undefined) {
      byRequested = new Map<string | undefined, Map<string | undefined, ModelMetricAttributes>>();
      this.models.set(provider, byRequested);
    }
    if (byResponded === undefined) {
      byResponded = new Map<string | undefined, ModelMetricAttributes>();
      byRequested.set(requested, byResponded);
    }
    byResponded.set(responded, sets);
    return sets;
  }

  /**
   * A tool's attributes: operation `execute_tool` and the tool's name.
   * @param name The tool's name.
   * @returns The set.
   */
  tool(name: string): Attributes {
    let set = this.tools.get(name);
    if (set === undefined) {
      set = { [GenAi.OPERATION_NAME]: GenAi.OPERATION_EXECUTE_TOOL, [GenAi.TOOL_NAME]: name };
      if (this.tools.size < MAX_KEPT) this.tools.set(name, set);
    }
    return set;
  }
}
