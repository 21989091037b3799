import { defer, Observable, of, Subscriber, throwError, timer } from 'rxjs';
import type { ModelCallInterceptor } from '../advisor-api/model-call-interceptor.js';
import type { ChatChunk } from '../core/chat-chunk.js';
import type { BudgetMeter, CallTally } from './budget-meter.js';

/**
 * The budget's model-call interceptor: counts each call as it streams (output estimated
 * from the deltas, replaced by the reported usage) and cuts it off at the chunk that
 * crosses a token or cost limit, or when the wall time runs out; a call the run cannot
 * afford any more is not made. Cutting off unsubscribes from `proceed` (the HTTP request
 * is aborted), then fails the call with the `BudgetExceededError` or, with
 * `onExceeded: 'finish'`, ends it with the unreported usage, the stop reason and a
 * `finish` (`length`). A call that was not made says so: its `metadata` has `rounds: 0`.
 *
 * ```
 * proceed:  --a--b--c--d--f|        each delta estimated; c crosses maxOutputTokens
 * result:   --a--b--(c#)            the request unsubscribed at c's frame
 * ```
 * @internal
 */
export function budgetModelCall(meter: BudgetMeter): ModelCallInterceptor {
  const { maxWallTime } = meter.options;
  return (call, proceed) =>
    defer(() => {
      if (!meter.withinBudget()) return notMade(meter);
      const remaining = meter.remainingTime();
      if (remaining !== undefined && remaining <= 0) {
        meter.exceed('wallTime', maxWallTime ?? 0);
        return notMade(meter);
      }
      const tally = meter.openCall(call.request);
      const crossed = meter.crossed();
      if (crossed !== undefined) {
        // The request alone would cross the budget: it is not sent.
        tally.retract();
        meter.exceed(crossed[0], crossed[1]);
        return notMade(meter);
      }
      const model$ = proceed(call.request);
      return new Observable<ChatChunk>((subscriber) => {
        const counting = new BudgetSubscriber(subscriber, meter, tally);
        // Subscribed before the call, as `takeUntil` would: a deadline cuts the call off.
        if (remaining !== undefined) {
          counting.add(timer(remaining).subscribe(() => counting.timeUp(maxWallTime ?? 0)));
        }
        model$.subscribe(counting);
      });
    });
}

/**
 * The one subscriber layer of a budgeted model call: counts, passes on, and on the chunk
 * that crosses a limit unsubscribes from the call (aborting the request) and ends the
 * call itself. It replaces `takeWhile(count, true)`, `concat(…, defer(cutOff))` and
 * `finalize(settle)`: those three layers cost ~33 ns per chunk over no budget in the LOOP
 * bench (W1, n = 10,000: 65 against 33 ns; a bare `takeWhile` that only counts costs
 * ~16 ns over `from(array)`) and 404 instructions per chunk (callgrind), as each wraps its
 * observer (`SafeSubscriber` plus an `OperatorSubscriber`) and calls through closures;
 * this layer costs 34 to 134 (two run pairs). A `Subscriber` subclass is what RxJS 7
 * subscribes with as it is (as `observeStream` of `rx-advisors/otel` does): the counting
 * is then the whole per-chunk cost, with no allocation (docs/loop-control.md, "Cost").
 * RxJS 8 makes the constructor internal; its `operate` is the replacement then.
 * Contract: the tally is settled (reported output replaces the estimate) before the call
 * ends downstream, on every way out, so the next call of the run sees settled counts.
 */
class BudgetSubscriber extends Subscriber<ChatChunk> {
  private readonly estimateTokens: (text: string) => number;

  constructor(
    private readonly downstream: Subscriber<ChatChunk>,
    private readonly meter: BudgetMeter,
    private readonly tally: CallTally,
  ) {
    super(downstream);
    this.estimateTokens = meter.options.estimateTokens;
    // Downstream left early: the counts still settle (idempotent after an end).
    this.add(() => tally.settle());
  }

  override next(chunk: ChatChunk): void {
    if (this.isStopped) return;
    let within: boolean;
    try {
      within = this.count(chunk);
    } catch (error) {
      this.fail(error);
      return;
    }
    this.downstream.next(chunk);
    if (!within && !this.closed) this.cutOff();
  }

  /** The wall time ran out while the call was streaming. */
  timeUp(maxWallTime: number): void {
    if (this.isStopped) return;
    this.meter.exceed('wallTime', maxWallTime);
    this.cutOff();
  }

  protected override _error(error: unknown): void {
    this.tally.settle();
    super._error(error);
  }

  protected override _complete(): void {
    this.tally.settle();
    super._complete();
  }

  /** Counts a chunk; `false` once the run is past a token or cost limit. */
  private count(chunk: ChatChunk): boolean {
    const { tally } = this;
    switch (chunk.type) {
      case 'text-delta':
      case 'reasoning-delta':
        tally.addOutput(this.estimateTokens(chunk.text));
        break;
      case 'tool-call-delta':
        tally.addOutput(this.estimateTokens(chunk.argumentsDelta));
        break;
      case 'usage':
        tally.report(chunk.usage.inputTokens, chunk.usage.outputTokens);
        break;
      case 'metadata':
        if (chunk.model !== undefined) tally.setModel(chunk.model);
        return true;
      case 'finish':
        tally.assertPriced();
        return true;
      default:
        return true;
    }
    return this.meter.withinBudget();
  }

  /** Leaves the call (its request aborted), then ends it as the budget says. */
  private cutOff(): void {
    const { downstream, meter, tally } = this;
    const error = meter.exceeded;
    this.unsubscribe();
    if (meter.options.onExceeded === 'error' && error !== undefined) {
      downstream.error(error);
      return;
    }
    for (const chunk of finishChunks(meter, tally)) downstream.next(chunk);
    downstream.complete();
  }

  /** A failure of the counting itself (a throwing `estimateTokens`, an unpriced model). */
  private fail(error: unknown): void {
    const { downstream } = this;
    this.unsubscribe();
    downstream.error(error);
  }
}

/** A call the run could not afford: not made; its error, or (`finish`) a graceful end. */
function notMade(meter: BudgetMeter): Observable<ChatChunk> {
  const error = meter.exceeded;
  if (meter.options.onExceeded === 'error' && error !== undefined) return throwError(() => error);
  return of(...finishChunks(meter, undefined));
}

/**
 * The end of a call the budget stopped under `onExceeded: 'finish'`: the usage the
 * provider never reported, the stop reason, `finish` (`length`). A call not made has
 * `rounds: 0` on its metadata, so the loop does not count it as a model call.
 */
function finishChunks(meter: BudgetMeter, tally: CallTally | undefined): ChatChunk[] {
  const chunks: ChatChunk[] = [];
  if (tally !== undefined) {
    // What the provider never reported (the call was cut before its usage came).
    const input = tally.reportedInput === undefined ? Math.ceil(tally.input) : 0;
    const output = tally.reportedOutput === undefined ? Math.ceil(tally.output) : 0;
    if (input + output > 0) {
      chunks.push({
        type: 'usage',
        usage: { inputTokens: input, outputTokens: output, totalTokens: input + output },
      });
    }
  }
  const metadata: ChatChunk = { type: 'metadata' };
  if (tally === undefined) metadata.rounds = 0;
  const stopReason = meter.stopReason();
  if (stopReason !== undefined) metadata.stopReason = stopReason;
  chunks.push(metadata);
  chunks.push({ type: 'finish', reason: 'length' });
  return chunks;
}
