// The Redis chat memory and the Redis run journal check their client and key prefix with
// one set of rules (lib/redis/): a user gets the same typed error, word for word, from both.
import { InvalidOptionsError } from '../../lib/index';
import { RedisChatMemoryRepository } from '../../lib/memory/redis/index';
import { RedisRunJournal } from '../../lib/run/redis/index';

const stores = [
  [
    'RedisChatMemoryRepository',
    (options: object) => new RedisChatMemoryRepository(options as never),
  ],
  ['RedisRunJournal', (options: object) => new RedisRunJournal(options as never)],
] as const;

/** The error `create(options)` throws. */
function errorOf(create: (options: object) => unknown, options: object): unknown {
  try {
    create(options);
  } catch (error) {
    return error;
  }
  throw new Error('no error');
}

const client = { sendCommand: () => Promise.resolve() };

// Where the two differ, on purpose and as before: which option a missing client and a bad
// option together are reported under (the chat memory checks a missing client last).
it.each([
  ['RedisChatMemoryRepository', stores[0][1], 'keyPrefix'],
  ['RedisRunJournal', stores[1][1], 'client'],
] as const)('%s names "%s" for a missing client and a bad key prefix', (_name, create, option) => {
  expect(errorOf(create, { keyPrefix: 5 })).toMatchObject({ option });
});

describe.each(stores)('%s', (_name, create) => {
  it.each([
    [
      'a missing client',
      {},
      `Invalid option "client": got undefined; expected a connected Redis client with sendCommand (import { createClient } from 'redis').`,
    ],
    [
      'a client without sendCommand',
      { client: { get: () => Promise.resolve() } },
      `Invalid option "client": got an object; expected a connected Redis client with sendCommand (import { createClient } from 'redis').`,
    ],
    [
      'a key prefix that is not a string',
      { client, keyPrefix: 5 },
      'Invalid option "keyPrefix": got 5; expected a string.',
    ],
  ])('refuses %s with an InvalidOptionsError and the same message', (_case, options, message) => {
    const error = errorOf(create, options);
    expect(error).toBeInstanceOf(InvalidOptionsError);
    expect((error as Error).message).toBe(message);
  });

  it('accepts a client with sendCommand and an empty key prefix', () => {
    expect(() => create({ client, keyPrefix: '' })).not.toThrow();
  });
});
