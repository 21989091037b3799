import { SignalContext } from '../../lib/core/signal-context';

describe('SignalContext', () => {
  it('makes its signal on the first read and gives the same one after', () => {
    const context = new SignalContext();
    const first = context.signal;
    expect(first).toBeInstanceOf(AbortSignal);
    expect(context.signal).toBe(first);
    expect(first.aborted).toBe(false);
  });

  it('fires a signal that was read', () => {
    const context = new SignalContext();
    const { signal } = context;
    const fired = jest.fn();
    signal.addEventListener('abort', fired);
    SignalContext.abort(context);
    expect(signal.aborted).toBe(true);
    expect(fired).toHaveBeenCalledTimes(1);
  });

  it('gives an aborted signal to a read that comes after the abort', () => {
    const context = new SignalContext();
    SignalContext.abort(context);
    expect(context.signal.aborted).toBe(true);
  });

  it('has the signal as an own enumerable property, so a spread copies it', () => {
    const context = new SignalContext();
    expect(Object.keys(context)).toEqual(['signal']);
    const copy = { ...context };
    expect(copy.signal).toBe(context.signal);
  });

  it('keeps each instance its own signal', () => {
    const a = new SignalContext();
    const b = new SignalContext();
    SignalContext.abort(a);
    expect(a.signal.aborted).toBe(true);
    expect(b.signal.aborted).toBe(false);
    expect(a.signal).not.toBe(b.signal);
  });
});
