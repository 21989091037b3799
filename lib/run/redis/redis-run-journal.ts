import { validateOptions, withDefaults } from '../../core/validate-options.js';
import { errorCodeOf, errorMessageOf } from '../../errors/error-details.js';
import { RunJournalError } from '../../errors/run-journal-error.js';
import { appendConflict, checkAppendLimits, recordSizes } from '../journal-limits.js';
import type { RunJournal } from '../run-journal.js';
import type { RunKey } from '../run-key.js';
import type { RunRecord } from '../run-record.js';
import { decodeRunRecord, encodeRunRecord } from '../run-record-codec.js';
import {
  REDIS_RUN_JOURNAL_DEFAULTS,
  REDIS_RUN_JOURNAL_RULES,
  type RedisRunCommandClient,
  type RedisRunJournalOptions,
} from './redis-run-journal-options.js';
import { appendCommands, isNoScript } from './redis-run-journal-script.js';

/**
 * A {@link RunJournal} in Redis, shared by every instance of a backend: a run is a list of
 * its records (one JSON text each) and a counter of their bytes, under one hash tag (one
 * cluster slot). An append is one Lua script (the length check, the limits, `RPUSH`, the
 * `PEXPIRE` of both keys): one round trip, atomic on the server, so two writers of one run
 * cannot both succeed and a batch is written whole or not at all. A read is one `LRANGE`.
 * Redis forgets a run `ttlMs` after its last append by itself.
 *
 * Every command fails after `commandTimeoutMs` with a `RunJournalError` `'store-failure'`
 * rather than wait for a server that is away. An append that timed out may still be
 * applied when the server answers later: read the run to know (the expected length keeps
 * a retry from writing it twice). Durability is the server's: run Redis with `appendonly
 * yes` and `maxmemory-policy noeviction`.
 *
 * @example
 * ```ts
 * import { createClient } from 'redis';
 * import { RedisRunJournal } from 'rx-advisors/run/redis';
 *
 * const client = await createClient({ url: process.env.REDIS_URL })
 *   .on('error', (error) => console.error('redis', error))
 *   .connect();
 * const journal = new RedisRunJournal({ client, ttlMs: 24 * 60 * 60 * 1000 });
 * await journal.append({ owner: 'user-1', runId: 'run-1' }, [{ type: 'run-started', delivered: 0, messages: [] }], 0);
 * ```
 */
export class RedisRunJournal implements RunJournal {
  /** Prefix of every key the journal writes. */
  readonly keyPrefix: string;
  private readonly client: RedisRunCommandClient;
  private readonly options: typeof REDIS_RUN_JOURNAL_DEFAULTS;

  /** @param options The client and, optionally, the key prefix, the limits and the command timeout. */
  constructor(options: RedisRunJournalOptions) {
    const given = validateOptions(options, REDIS_RUN_JOURNAL_RULES);
    this.client = given.client;
    this.options = withDefaults(REDIS_RUN_JOURNAL_DEFAULTS, given);
    this.keyPrefix = this.options.keyPrefix;
  }

  /** @inheritDoc */
  async append(
    key: RunKey,
    records: readonly RunRecord[],
    expectedLength: number,
  ): Promise<number> {
    const texts = records.map(encodeRunRecord);
    const sizes = recordSizes(texts);
    // The per-record limit needs no state: refused before anything is sent.
    checkAppendLimits(
      key.runId,
      sizes,
      { records: 0, bytes: 0 },
      {
        ...this.options,
        maxRecords: Number.MAX_SAFE_INTEGER,
        maxRunBytes: Number.MAX_SAFE_INTEGER,
      },
    );
    const batchBytes = sizes.reduce((sum, size) => sum + size, 0);
    const { sha, full } = appendCommands(this.keys(key), [
      String(expectedLength),
      String(this.options.ttlMs),
      String(this.options.maxRecords),
      String(this.options.maxRunBytes),
      String(batchBytes),
      ...texts,
    ]);
    const reply = await this.send(key.runId, 'append to', sha).catch((error: unknown) => {
      if (!isNoScript((error as RunJournalError).cause)) throw error;
      return this.send(key.runId, 'append to', full);
    });
    const [status, length, bytes] = (reply as unknown[]).map(Number) as [number, number, number];
    if (status === 1) throw appendConflict(key.runId, expectedLength, length);
    if (status !== 0) {
      checkAppendLimits(key.runId, sizes, { records: length, bytes }, this.options);
    }
    return length + texts.length;
  }

  /** @inheritDoc */
  async read(key: RunKey): Promise<readonly RunRecord[]> {
    const texts = await this.send(key.runId, 'read', ['LRANGE', this.keys(key)[0], '0', '-1']);
    return (texts as string[]).map((text, index) =>
      decodeRunRecord(String(text), { runId: key.runId, index }),
    );
  }

  /** @inheritDoc */
  async delete(key: RunKey): Promise<void> {
    await this.send(key.runId, 'delete', ['DEL', ...this.keys(key)]);
  }

  /**
   * The run's two keys. Owner and run id are URI-encoded, so `:`, `{` and `}` in them can
   * neither join two runs nor move the hash tag.
   */
  private keys(key: RunKey): [records: string, bytes: string] {
    const run = `${this.keyPrefix}{${encodeURIComponent(key.owner)}:${encodeURIComponent(key.runId)}}`;
    return [`${run}:records`, `${run}:bytes`];
  }

  /** One command, failed with a typed error when the client fails or the server takes too long. */
  private send(runId: string, operation: string, args: string[]): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const fail = (error: unknown, reason: string) =>
        reject(
          new RunJournalError({
            runId,
            reason: 'store-failure',
            message: `The run journal could not ${operation} the run: ${reason}`,
            cause: error,
          }),
        );
      const timer = setTimeout(
        () =>
          fail(
            undefined,
            `Redis did not answer within ${this.options.commandTimeoutMs} ms (commandTimeoutMs). ` +
              'Check that the server is up; an append may still be applied when it answers.',
          ),
        this.options.commandTimeoutMs,
      );
      this.client.sendCommand(args).then(
        (reply) => {
          clearTimeout(timer);
          resolve(reply);
        },
        (error: unknown) => {
          clearTimeout(timer);
          const code = errorCodeOf(error);
          fail(
            error,
            `Redis failed${code === '' ? '' : ` (${code})`}: ${errorMessageOf(error)}. ` +
              'An append is one atomic script: it was applied whole or not at all.',
          );
        },
      );
    });
  }
}
