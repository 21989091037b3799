// A second "instance" for the cross-process test: runs one resumable stream whose model
// emits a text delta every 20 ms until it is torn down, then says "aborted" and exits.
//   tsx stream-instance-process.ts <redis url> <key prefix> <owner> <stream id>
import { createClient } from 'redis';
import { interval, map, finalize } from 'rxjs';
import type { ChatChunk } from '../../../../lib/core/chat-chunk';
import { RedisResumableStreams } from '../../../../lib/sse/redis/index';

const [url, keyPrefix, owner, streamId] = process.argv.slice(2) as [string, string, string, string];

async function main(): Promise<void> {
  const client = await createClient({ url }).connect();
  const streams = new RedisResumableStreams({ client, keyPrefix });
  const model$ = interval(20).pipe(
    map((i): ChatChunk => ({ type: 'text-delta', text: `d${i} ` })),
    finalize(() => {
      process.stdout.write('aborted\n');
      setTimeout(() => {
        void streams
          .close()
          .then(() => client.quit())
          .then(() => process.exit(0));
      }, 50);
    }),
  );
  // The client of this instance reads the first frames, then drops its connection.
  const first = streams
    .start({ owner, streamId }, model$, { heartbeat: false })
    .subscribe((frame) => {
      if (frame.startsWith('id: 3\n')) {
        first.unsubscribe();
        process.stdout.write('started\n');
      }
    });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
