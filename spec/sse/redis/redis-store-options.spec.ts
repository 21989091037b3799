import { InvalidOptionsError } from '../../../lib/index';
import { RedisResumableStreamStore } from '../../../lib/sse/redis/index';

describe('RedisResumableStreamStore options', () => {
  it('refuses a missing client with the option named and what is expected', () => {
    let error: unknown;
    try {
      new RedisResumableStreamStore({} as never);
    } catch (thrown) {
      error = thrown;
    }
    expect(InvalidOptionsError.isInstance(error)).toBe(true);
    expect((error as InvalidOptionsError).option).toBe('client');
    expect((error as InvalidOptionsError).message).toContain('a connected Redis client');
  });

  it('refuses a value that is not a Redis client the same way', () => {
    expect(() => new RedisResumableStreamStore({ client: {} } as never)).toThrow(
      /Invalid option "client"/,
    );
  });
});
