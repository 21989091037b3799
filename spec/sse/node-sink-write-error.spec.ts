// pipeToNodeResponse when the response's write throws: the response is ended and the chunks
// unsubscribed (before, the throw went to RxJS's unhandled-error report and the stream went on).
import { createServer, type ServerResponse } from 'node:http';
import { Observable, Subject } from 'rxjs';
import type { ChatChunk } from '../../lib/core/chat-chunk';
import { pipeToNodeResponse } from '../../lib/sse';
import { close, eventually, listen } from './support/sse-test-kit';

describe('pipeToNodeResponse, a write that throws', () => {
  it('ends the response and unsubscribes the chunks', async () => {
    const deltas = new Subject<ChatChunk>();
    let tornDown = 0;
    const chunks$ = new Observable<ChatChunk>((subscriber) => {
      const inner = deltas.subscribe(subscriber);
      return () => {
        tornDown++;
        inner.unsubscribe();
      };
    });
    let response: ServerResponse | undefined;
    const server = createServer((_req, res) => {
      response = res;
      pipeToNodeResponse(chunks$, res, { protocol: 'ai-sdk-ui', heartbeat: false });
    });
    const url = await listen(server);
    try {
      const answer = await fetch(url);
      const reader = answer.body!.getReader();
      await reader.read(); // the opening frames
      const res = response!;
      res.write = () => {
        throw new Error('the socket broke');
      };
      deltas.next({ type: 'text-delta', text: 'lost' });
      expect(tornDown).toBe(1);
      expect(res.destroyed).toBe(true);
      await expect(
        (async () => {
          for (;;) if ((await reader.read()).done) return;
        })(),
      ).rejects.toThrow();
      await eventually(() => deltas.observed === false, 'the chunks were unsubscribed');
    } finally {
      await close(server);
    }
  });
});
