import { readStreamIndex, StreamDataError } from 'rx-advisors/provider-kit';

describe('readStreamIndex', () => {
  it('returns a non-negative safe integer as it is', () => {
    expect(readStreamIndex(0, 'i')).toBe(0);
    expect(readStreamIndex(2e8, 'i')).toBe(2e8);
    expect(readStreamIndex(Number.MAX_SAFE_INTEGER, 'i')).toBe(Number.MAX_SAFE_INTEGER);
  });

  it.each([-1, 0.5, Number.NaN, Infinity, 2 ** 53, '0', null, undefined, {}])(
    'throws a StreamDataError naming the field for %p',
    (value) => {
      let thrown: unknown;
      try {
        readStreamIndex(value, 'tool_calls[0].index');
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(StreamDataError);
      expect(thrown).toMatchObject({
        field: 'tool_calls[0].index',
        value,
        expected: 'a non-negative integer',
      });
    },
  );
});
