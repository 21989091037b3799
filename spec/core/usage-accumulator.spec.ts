import { UsageAccumulator, type ChatResponse } from '../../lib/index';

describe('UsageAccumulator', () => {
  it('sums every field: 10/20/30 + 1/2/3 = 11/22/33', () => {
    const total = new UsageAccumulator()
      .add({ inputTokens: 10, outputTokens: 20, totalTokens: 30 })
      .add({ inputTokens: 1, outputTokens: 2, totalTokens: 3 }).total;
    expect(total).toEqual({ inputTokens: 11, outputTokens: 22, totalTokens: 33 });
  });

  it('sums cache reads 100 + 200 = 300, and cache writes and reasoning tokens too', () => {
    const total = new UsageAccumulator()
      .add({
        inputTokens: 1,
        outputTokens: 1,
        totalTokens: 2,
        cacheReadTokens: 100,
        cacheWriteTokens: 5,
        reasoningTokens: 7,
      })
      .add({
        inputTokens: 1,
        outputTokens: 1,
        totalTokens: 2,
        cacheReadTokens: 200,
        reasoningTokens: 3,
      }).total;
    expect(total.cacheReadTokens).toBe(300);
    expect(total.cacheWriteTokens).toBe(5);
    expect(total.reasoningTokens).toBe(10);
  });

  it('leaves a field that neither round reported undefined, never 0', () => {
    const total = new UsageAccumulator()
      .add({ inputTokens: 10, outputTokens: undefined, totalTokens: undefined })
      .add({ inputTokens: 1, outputTokens: undefined, totalTokens: undefined }).total;
    expect(total).toEqual({ inputTokens: 11, outputTokens: undefined, totalTokens: undefined });
    expect('cacheReadTokens' in total).toBe(false);
  });

  it('adds a round response and stamps a response with the total without changing it', () => {
    const round = { usage: { inputTokens: 5, outputTokens: 5, totalTokens: 10 } } as ChatResponse;
    const accumulator = new UsageAccumulator().addRoundResponse(round).addRoundResponse(round);
    const stamped = accumulator.applyTo(round);
    expect(stamped.usage).toEqual({ inputTokens: 10, outputTokens: 10, totalTokens: 20 });
    expect(round.usage.totalTokens).toBe(10);
    expect(accumulator.size).toBe(2);
  });

  it('ignores an undefined usage', () => {
    expect(new UsageAccumulator().add(undefined).size).toBe(0);
  });
});
