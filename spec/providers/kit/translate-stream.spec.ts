import { of } from 'rxjs';
import { InvalidOptionsError } from 'rx-advisors';
import { translateStream, type StreamTranslator } from 'rx-advisors/provider-kit';

const translator = (): StreamTranslator<string> => ({
  event: (text, sink) => sink.next({ type: 'text-delta', text }),
  end: (sink) => sink.next({ type: 'finish', reason: 'stop' }),
});
const errors = { provider: 'test', secrets: [] };

describe('translateStream options', () => {
  it.each([0, -1, 1.5, Number.NaN, 2 ** 31, -Infinity, '100'])(
    'rejects idleTimeout %p with an InvalidOptionsError',
    (idleTimeout) => {
      expect(() =>
        translateStream({
          events$: of('a'),
          createTranslator: translator,
          errors,
          idleTimeout: idleTimeout as number,
        }),
      ).toThrow(InvalidOptionsError);
    },
  );

  it.each([1, 2 ** 31 - 1, Infinity])('accepts idleTimeout %p', (idleTimeout) => {
    expect(() =>
      translateStream({ events$: of('a'), createTranslator: translator, errors, idleTimeout }),
    ).not.toThrow();
  });
});
