import { InvalidOptionsError } from '../../lib/errors/invalid-options-error';
import { Rules, validateOptions, withDefaults } from '../../lib/core/validate-options';

interface Options {
  size?: number;
  mode?: 'a' | 'b';
  name?: string;
}

const RULES = {
  size: Rules.integer(1, 10),
  mode: Rules.oneOf('a', 'b'),
  name: Rules.required(Rules.nonEmptyString),
};

function failure(run: () => unknown): InvalidOptionsError {
  try {
    run();
  } catch (error) {
    if (InvalidOptionsError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected an InvalidOptionsError');
}

describe('validateOptions()', () => {
  it('returns the options when every rule holds and skips absent optional options', () => {
    const options: Options = { name: 'x', size: 3 };
    expect(validateOptions(options, RULES)).toBe(options);
  });

  it('names the first bad option, its value and what is expected', () => {
    const error = failure(() => validateOptions<Options>({ name: 'x', size: 11 }, RULES));
    expect(error.option).toBe('size');
    expect(error.value).toBe(11);
    expect(error.message).toContain('an integer from 1 to 10');
  });

  it('rejects an absent required option, with the prefix in its name', () => {
    const error = failure(() => validateOptions<Options>({ size: 2 }, RULES, 'tool.'));
    expect(error.option).toBe('tool.name');
    expect(error.message).toContain('a non-empty string');
  });

  it('treats undefined options as {} and non-finite numbers as bad', () => {
    expect(failure(() => validateOptions<Options>(undefined, RULES)).option).toBe('name');
    expect(() => validateOptions({ n: Infinity }, { n: Rules.positive })).toThrow(
      'a positive finite number',
    );
  });
});

describe('withDefaults()', () => {
  it('keeps a default where the option is undefined and overrides it where it is set', () => {
    const DEFAULTS = { size: 5, mode: 'a' } as const;
    expect(withDefaults(DEFAULTS, { size: undefined, mode: 'b' as const })).toEqual({
      size: 5,
      mode: 'b',
    });
    expect(DEFAULTS).toEqual({ size: 5, mode: 'a' });
  });
});
