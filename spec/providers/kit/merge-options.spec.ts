import { mergeOptions } from 'rx-advisors/provider-kit';

describe('mergeOptions', () => {
  it('returns the request options themselves when the model has no defaults', () => {
    const options = { temperature: 0.2 };
    expect(mergeOptions(undefined, options)).toBe(options);
  });

  it('puts the request fields over the model defaults', () => {
    expect(mergeOptions({ temperature: 0, maxTokens: 100 }, { temperature: 0.7 })).toEqual({
      temperature: 0.7,
      maxTokens: 100,
    });
  });

  it('merges extra field by field, the request winning', () => {
    expect(mergeOptions({ extra: { seed: 1, user: 'a' } }, { extra: { user: 'b' } }).extra).toEqual(
      { seed: 1, user: 'b' },
    );
  });

  it('keeps a model-level prompt cache key when the request only places breakpoints', () => {
    const merged = mergeOptions(
      { promptCache: { key: 'tenant-7', ttl: '1h' } },
      { promptCache: { breakpoints: ['system', 'conversation'] } },
    );
    expect(merged.promptCache).toEqual({
      key: 'tenant-7',
      ttl: '1h',
      breakpoints: ['system', 'conversation'],
    });
  });

  it('lets the request replace a model-level prompt cache field', () => {
    const merged = mergeOptions(
      { promptCache: { key: 'model-key' } },
      { promptCache: { key: 'request-key' } },
    );
    expect(merged.promptCache).toEqual({ key: 'request-key' });
  });
});
