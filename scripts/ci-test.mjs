// CI's test step (.ci/run): the README's test command, `npm test`, writing Jest's JSON
// results to the given file, with a watchdog. Jest waits for every handle a test left open
// (a child process, a socket, a timer) before it exits; on a machine with one Jest worker
// the tests run in Jest's own process, so one such handle would keep CI running until its
// time limit and hide the results. Once the results are written, the run gets
// GRACE_SECONDS to exit; then it is ended, with everything it started, and the step fails
// with a line that says why.
//   node scripts/ci-test.mjs <results file>
// CI_TEST_GRACE_SECONDS sets another grace (its own spec uses 1).
import { spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';

const GRACE_SECONDS = Number(process.env.CI_TEST_GRACE_SECONDS ?? 60);
const results = process.argv[2] ?? 'test-output/jest.json';
rmSync(results, { force: true });

// Its own process group (detached), so ending it ends what the tests started too.
const run = spawn('npm', ['test', '--', '--json', `--outputFile=${results}`], {
  stdio: 'inherit',
  detached: true,
});
const endRun = (signal) => {
  try {
    process.kill(-run.pid, signal);
  } catch {
    // already gone
  }
};
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => endRun(signal));

let ended = false;
const poll = setInterval(() => {
  if (!existsSync(results)) return;
  clearInterval(poll);
  setTimeout(() => {
    ended = true;
    console.error(
      `The test run did not exit ${GRACE_SECONDS} s after writing its results: a test left a ` +
        'handle open (a child process, a socket, a timer). Ended it; run `npx jest ' +
        '--detectOpenHandles` to find it.',
    );
    endRun('SIGKILL');
  }, GRACE_SECONDS * 1000).unref();
}, 1000);

run.on('exit', (code, signal) => {
  clearInterval(poll);
  process.exit(ended ? 1 : (code ?? (signal ? 1 : 0)));
});
