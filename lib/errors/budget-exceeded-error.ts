import { hasErrorMarker, RxAdvisorsError } from './rx-advisors-error.js';

const MARKER = Symbol.for('rx-advisors.error.BudgetExceededError');

/** What a run had spent when a budget stopped it (estimates included for a call cut off). */
export interface BudgetSpent {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  /** In the unit of the price table; 0 without one. */
  cost: number;
  toolCalls: number;
  /** Milliseconds (RxJS scheduler time) since the run started. */
  elapsed: number;
}

/**
 * Raised by `BudgetAdvisor` when a run crosses one of its limits: the model call in
 * flight is cut off (its HTTP request aborted), running tools are cancelled and the run
 * fails with this error, carrying what was spent.
 *
 * @example
 * ```ts
 * import { BudgetExceededError } from 'rx-advisors';
 *
 * client.prompt('research this').call().content().subscribe({
 *   error: (error) => {
 *     if (BudgetExceededError.isInstance(error)) {
 *       console.log(`${error.limit}: ${error.spentOfLimit} > ${error.max}`, error.spent.totalTokens);
 *     }
 *   },
 * });
 * ```
 */
export class BudgetExceededError extends RxAdvisorsError {
  /** The limit crossed: `inputTokens`, `outputTokens`, `totalTokens`, `cost`, `wallTime`, `toolCalls`. */
  readonly limit: string;
  /** The limit's value. */
  readonly max: number;
  /** What was spent of that limit. */
  readonly spentOfLimit: number;
  /** Everything the run had spent. */
  readonly spent: BudgetSpent;

  /** @param options The limit, its value, and what was spent. */
  constructor(options: { limit: string; max: number; spent: BudgetSpent }) {
    const { limit, max, spent } = options;
    const spentOfLimit = spent[limitField(limit)];
    super(
      `The run's ${limit} budget is exceeded: spent ${round(spentOfLimit)} of ${max}; the run ` +
        `was cut off. Raise the BudgetAdvisor's limit, or make the run cheaper (fewer rounds, ` +
        `a smaller model, shorter context).`,
    );
    Object.defineProperty(this, MARKER, { value: true });
    this.limit = limit;
    this.max = max;
    this.spentOfLimit = spentOfLimit;
    this.spent = spent;
  }

  /**
   * Whether `error` is a {@link BudgetExceededError}, even from another copy of the package.
   * @param error Any value.
   * @returns `true` when `error` carries this class's marker.
   */
  static override isInstance(error: unknown): error is BudgetExceededError {
    return hasErrorMarker(error, MARKER);
  }
}

function limitField(limit: string): keyof BudgetSpent {
  return limit === 'wallTime' ? 'elapsed' : (limit as keyof BudgetSpent);
}

function round(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}
