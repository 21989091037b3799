import { Observable } from 'rxjs';
import { ResumableStreams } from '../../lib/sse';
it('dbg', () => {
  const streams = new ResumableStreams({ maxStreams: 2 });
  let tornDown = 0;
  const source$ = new Observable<any>(() => () => tornDown++);
  const key = (s: string) => ({ owner: 'alice', streamId: s });
  streams.start(key('a'), source$).subscribe();
  console.log('size', streams.size, tornDown);
  streams.start(key('a'), source$).subscribe();
  console.log('size', streams.size, tornDown);
  streams.start(key('b'), source$).subscribe();
  console.log('size', streams.size, tornDown);
  streams.start(key('c'), source$).subscribe();
  console.log('size', streams.size, tornDown);
});
