// The PostgreSQL chat memory and the PostgreSQL run journal check their pool, table name and
// createTable with one set of rules (lib/postgres/, the identifier rule of lib/core/): a user
// gets the same typed error, word for word, from both; only the table name's length differs
// (the journal appends `_runs` and `_expires` to it).
import { InvalidOptionsError } from '../../lib/index';
import { PostgresChatMemoryRepository } from '../../lib/memory/postgres/index';
import { PostgresRunJournal } from '../../lib/run/postgres/index';

/** Enough of a pool for the constructors, which connect on first use only. */
const pool = { query: () => Promise.resolve(), connect: () => Promise.resolve() };
const IDENTIFIER = 'letters, digits and underscores, not starting with a digit';

const stores = [
  [
    'PostgresChatMemoryRepository',
    (options: object) => new PostgresChatMemoryRepository(options as never),
    PostgresChatMemoryRepository.schemaSql,
    63,
    `a SQL identifier: ${IDENTIFIER}`,
  ],
  [
    'PostgresRunJournal',
    (options: object) => new PostgresRunJournal(options as never),
    PostgresRunJournal.schemaSql,
    54,
    `a SQL identifier of at most 54 characters: ${IDENTIFIER}`,
  ],
] as const;

/** The error `run()` throws. */
function errorOf(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('no error');
}

// Where the two differ, on purpose and as before: which option a missing pool and a bad
// option together are reported under (the chat memory checks a missing pool last).
it.each([
  ['PostgresChatMemoryRepository', stores[0][1], 'tableName'],
  ['PostgresRunJournal', stores[1][1], 'pool'],
] as const)('%s names "%s" for a missing pool and a bad table name', (_name, create, option) => {
  expect(errorOf(() => create({ tableName: '1st' }))).toMatchObject({ option });
});

describe.each(stores)('%s', (_name, create, schemaSql, maxLength, identifier) => {
  const POOL = `a pg Pool (import pg from 'pg'; new pg.Pool({ connectionString }))`;
  it.each([
    ['a missing pool', {}, `Invalid option "pool": got undefined; expected ${POOL}.`],
    [
      'a pool without connect',
      { pool: { query: pool.query } },
      `Invalid option "pool": got an object; expected ${POOL}.`,
    ],
    [
      'a table name that is not an identifier',
      { pool, tableName: '1st' },
      `Invalid option "tableName": got "1st"; expected ${identifier}.`,
    ],
    [
      'a table name one character too long',
      { pool, tableName: 'a'.repeat(maxLength + 1) },
      `Invalid option "tableName": got "${'a'.repeat(maxLength + 1)}"; expected ${identifier}.`,
    ],
    [
      'a createTable that is not a boolean',
      { pool, createTable: 'yes' },
      'Invalid option "createTable": got "yes"; expected true or false.',
    ],
  ])('refuses %s with an InvalidOptionsError and the same message', (_case, options, message) => {
    const error = errorOf(() => create(options));
    expect(error).toBeInstanceOf(InvalidOptionsError);
    expect((error as Error).message).toBe(message);
  });

  it(`accepts a table name of ${maxLength} characters, and schemaSql checks it with the same rule`, () => {
    expect(() => create({ pool, tableName: `_${'a'.repeat(maxLength - 1)}` })).not.toThrow();
    expect(schemaSql(`_${'a'.repeat(maxLength - 1)}`)).toContain('CREATE TABLE');
    const error = errorOf(() => schemaSql('a; DROP TABLE x'));
    expect(error).toBeInstanceOf(InvalidOptionsError);
    expect((error as Error).message).toBe(
      `Invalid option "tableName": got "a; DROP TABLE x"; expected ${identifier}.`,
    );
  });
});
