import type { ChatRequest } from '../core/chat-request.js';
import type { LoopStopReason } from '../core/loop-stop-reason.js';
import { BudgetExceededError, type BudgetSpent } from '../errors/budget-exceeded-error.js';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import { priceOf, type ModelPrice, type ResolvedBudgetOptions } from './budget-advisor-options.js';

/**
 * What one run (one `request.context`) has spent, shared by every model call and tool
 * call of the run and of the runs nested in it. Counts live estimates of the calls in
 * flight, replaced by what providers report.
 * @internal
 */
export class BudgetMeter {
  input = 0;
  output = 0;
  cost = 0;
  toolCalls = 0;
  /** The first limit crossed; the run is over once set. */
  exceeded: BudgetExceededError | undefined;
  readonly startedAt: number;

  constructor(
    readonly options: ResolvedBudgetOptions,
    readonly now: () => number,
  ) {
    this.startedAt = now();
  }

  spent(): BudgetSpent {
    return {
      inputTokens: Math.ceil(this.input),
      outputTokens: Math.ceil(this.output),
      totalTokens: Math.ceil(this.input + this.output),
      cost: this.cost,
      toolCalls: this.toolCalls,
      elapsed: this.now() - this.startedAt,
    };
  }

  /** The stop reason of the crossed limit (for `onExceeded: 'finish'`). */
  stopReason(): LoopStopReason | undefined {
    const error = this.exceeded;
    if (error === undefined) return undefined;
    return {
      type: 'budget-exceeded',
      limit: error.limit,
      spent: error.spentOfLimit,
      max: error.max,
    };
  }

  /** Records the first limit crossed. */
  exceed(limit: string, max: number): BudgetExceededError {
    return (this.exceeded ??= new BudgetExceededError({ limit, max, spent: this.spent() }));
  }

  /** The first token or cost limit the counts are past, as `[limit, max]`. */
  crossed(): [string, number] | undefined {
    const { maxInputTokens, maxOutputTokens, maxTotalTokens, maxCost } = this.options;
    if (maxOutputTokens !== undefined && this.output > maxOutputTokens) {
      return ['outputTokens', maxOutputTokens];
    }
    if (maxInputTokens !== undefined && this.input > maxInputTokens) {
      return ['inputTokens', maxInputTokens];
    }
    if (maxTotalTokens !== undefined && this.input + this.output > maxTotalTokens) {
      return ['totalTokens', maxTotalTokens];
    }
    if (maxCost !== undefined && this.cost > maxCost) return ['cost', maxCost];
    return undefined;
  }

  /** Whether the run goes on: no limit recorded and the token and cost limits hold. */
  readonly withinBudget = (): boolean => {
    if (this.exceeded !== undefined) return false;
    const crossed = this.crossed();
    if (crossed === undefined) return true;
    this.exceed(crossed[0], crossed[1]);
    return false;
  };

  /** Milliseconds left of the wall time; `undefined` without that limit. */
  remainingTime(): number | undefined {
    const { maxWallTime } = this.options;
    return maxWallTime === undefined ? undefined : this.startedAt + maxWallTime - this.now();
  }

  /** Counts a tool call; `false` (and the limit recorded) past `maxToolCalls`. */
  countToolCall(): boolean {
    const { maxToolCalls } = this.options;
    this.toolCalls++;
    if (maxToolCalls === undefined || this.toolCalls <= maxToolCalls) return true;
    this.exceed('toolCalls', maxToolCalls);
    return false;
  }

  /** Opens the tally of one model call: its input, estimated from the request until reported. */
  openCall(request: ChatRequest): CallTally {
    const tally = new CallTally(this, request.options.model);
    tally.addInput(estimateInput(request, this.options.estimateTokens));
    return tally;
  }
}

/**
 * One model call's share of the meter: estimates while it streams, replaced by the usage
 * the provider reports (input at once; output when the call ends, since a provider may
 * report it in parts).
 * @internal
 */
export class CallTally {
  input = 0;
  output = 0;
  reportedInput: number | undefined;
  reportedOutput: number | undefined;
  private price: ModelPrice | undefined;

  constructor(
    private readonly meter: BudgetMeter,
    private model: string | undefined,
  ) {
    // Without a model name, the provider's report names it (the '*' entry waits for that).
    if (model !== undefined) this.price = priceOf(meter.options.prices, model);
  }

  /**
   * The model the provider reports: prices the call when the request named none (what was
   * counted before is priced now).
   */
  setModel(model: string): void {
    if (this.price !== undefined || this.model !== undefined) return;
    this.model = model;
    this.priceCounted(priceOf(this.meter.options.prices, model));
  }

  /** At the call's end: the `'*'` price if nothing named the model; with a cost limit, no price is an error. */
  assertPriced(): void {
    if (this.price !== undefined) return;
    this.priceCounted(priceOf(this.meter.options.prices, undefined));
    if (this.price !== undefined || this.meter.options.maxCost === undefined) return;
    throw new InvalidOptionsError({
      option: 'prices',
      value: this.model ?? '(no model name)',
      expected: `a price for model ${JSON.stringify(this.model ?? '')} or a "*" entry (maxCost is set)`,
    });
  }

  /** Prices what was counted before the price was known. */
  private priceCounted(price: ModelPrice | undefined): void {
    this.price = price;
    if (price !== undefined) this.meter.cost += costOf(price, this.input, this.output);
  }

  addInput(tokens: number): void {
    this.input += tokens;
    this.meter.input += tokens;
    if (this.price !== undefined) this.meter.cost += costOf(this.price, tokens, 0);
  }

  addOutput(tokens: number): void {
    this.output += tokens;
    this.meter.output += tokens;
    if (this.price !== undefined) this.meter.cost += costOf(this.price, 0, tokens);
  }

  /** A usage chunk: reported input replaces the estimate; output is kept for the end. */
  report(input: number | undefined, output: number | undefined): void {
    if (input !== undefined) {
      const estimated = this.reportedInput === undefined ? this.input : 0;
      this.reportedInput = (this.reportedInput ?? 0) + input;
      this.addInput(input - estimated);
    }
    if (output !== undefined) {
      this.reportedOutput = (this.reportedOutput ?? 0) + output;
      // While it streams, the larger of the two counts (output may be reported in parts).
      if (this.reportedOutput > this.output) this.addOutput(this.reportedOutput - this.output);
    }
  }

  /** Takes the input estimate back: the call was refused before it was made. */
  retract(): void {
    this.addInput(-this.input);
  }

  /** The call ended (or was cut off): reported output, when there is some, replaces the estimate. */
  settle(): void {
    if (this.reportedOutput !== undefined) this.addOutput(this.reportedOutput - this.output);
  }
}

function costOf(price: ModelPrice, input: number, output: number): number {
  return (input * price.inputPerMillion + output * price.outputPerMillion) / 1e6;
}

function estimateInput(request: ChatRequest, estimate: (text: string) => number): number {
  let tokens = 0;
  for (const message of request.messages) {
    tokens += estimate(message.content);
    if (message.role === 'assistant' && message.toolCalls !== undefined) {
      for (const call of message.toolCalls) tokens += estimate(call.arguments);
    }
  }
  return tokens;
}
