import { runTwoWriters } from './support/two-writers';
it('dbg', async () => {
  await runTwoWriters('redis', 'redis://127.0.0.1:16399', 'dbg2:', 'shared', 3);
}, 20000);
