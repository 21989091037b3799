import type { ResumableStreamKey } from '../resumable-stream-store.js';

/** The Redis keys of one stream (see redis-stream-scripts.ts). @internal */
export interface StreamKeys {
  readonly base: string;
  readonly meta: string;
  readonly frames: string;
  readonly alive: string;
  readonly producer: string;
  readonly owner: string;
  readonly ownerPrefix: string;
  readonly id: string;
}

/**
 * The keys of `key` under `prefix`: owner and id URI-encoded, so neither can reach into
 * another owner's keys.
 * @internal
 */
export function streamKeys(prefix: string, key: ResumableStreamKey): StreamKeys {
  const owner = encodeURIComponent(key.owner);
  const id = encodeURIComponent(key.streamId);
  const ownerPrefix = `${prefix}${owner}:`;
  const base = `${ownerPrefix}${id}`;
  return {
    base,
    meta: `${base}:meta`,
    frames: `${base}:frames`,
    alive: `${base}:alive`,
    producer: `${base}:producer`,
    owner: `${ownerPrefix}streams`,
    ownerPrefix,
    id,
  };
}
