import { spawn } from 'node:child_process';
import { buildSync } from 'esbuild';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import {
  describeWith,
  postgresPlan,
  redisPlan,
  type StoreServer,
} from '../../support/servers/store-servers';

// The proof by killing: a three-round trip run with parallel tools (spec/run/durable/support/
// trip-run.ts) in a real child process, SIGKILLed at every journal append boundary (before
// append k, nothing of it written), then resumed by a fresh process from the shared store:
// a SQLite file, a real redis-server and a real PostgreSQL (started by the harness, as for the memory stores).

const ROOT = resolve(__dirname, '../../..');
const CHILD = 'spec/run/durable/support/kill-child.ts';
/** The child, bundled once (esbuild): a fresh process loads one file, not the library's hundreds. */
let bundle: string;
/**
 * The run makes 8 appends (11 records: the outcomes of the idempotent searches ride with
 * round 2, the answer's round with run-ended); 9 kills it after the last one, once the
 * answer is out.
 */
const APPENDS = 8;
/** What each append carries, in order (`before <n> <records>` lines of the child). */
const BATCHES = [
  'run-started -',
  'model-round 1',
  'tool-outcome search + tool-outcome search + model-round 2',
  'tool-call-started book',
  'tool-call-started mail',
  'tool-outcome book',
  'tool-outcome mail',
  'model-round 3 + run-ended -',
];
/** The append that carries the searches' outcomes. */
const SEARCHES_RECORDED_BY = 3;

interface Child {
  lines: string[];
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** Runs the child; SIGKILLs it when it says it paused. */
function runChild(env: Record<string, string>): Promise<Child> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [bundle], {
      cwd: ROOT,
      env: { PATH: process.env['PATH'] ?? '', NODE_PATH: join(ROOT, 'node_modules'), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (data: Buffer) => {
      out += data.toString();
      if (out.split('\n').includes('paused')) child.kill('SIGKILL');
    });
    child.stderr.on('data', (data: Buffer) => (err += data.toString()));
    child.once('error', fail);
    child.once('exit', (code, signal) => {
      if (code !== null && code !== 0) fail(new Error(`child exited ${code}:\n${out}\n${err}`));
      else done({ lines: out.split('\n').filter((line) => line !== ''), code, signal });
    });
  });
}

interface Result {
  text: string;
  usage: unknown;
}
const resultOf = (child: Child): Result => {
  const line = child.lines.find((l) => l.startsWith('result '));
  if (line === undefined) throw new Error(`no result in:\n${child.lines.join('\n')}`);
  return JSON.parse(line.slice('result '.length)) as Result;
};
const count = (effects: readonly string[], what: string): number =>
  effects.filter((e) => e === what).length;

jest.setTimeout(60_000);

/**
 * The kill suite on one store: `storeEnv(k)` is what the children need to reach it (a SQLite
 * file, or a Redis URL and a key prefix of the kill point's own).
 */
function killSuite(storeEnv: (k: number) => Record<string, string>): void {
  let dir: string;
  let uninterrupted: Result | undefined;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'rx-advisors-kill-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Kills the run before append `k`, resumes it in a fresh process. */
  async function killAndResume(k: number) {
    const env = {
      EFFECTS_FILE: join(dir, `effects-${k}.txt`),
      KILL_BEFORE: String(k),
      ...storeEnv(k),
    };
    writeFileSync(env.EFFECTS_FILE, '');
    const killed = await runChild(env);
    expect(killed.signal).toBe('SIGKILL');
    const ranBeforeKill = readFileSync(env.EFFECTS_FILE, 'utf8').split('\n');
    const resumed = await runChild({ ...env, MODE: 'resume' });
    expect(resumed.code).toBe(0);
    const effects = readFileSync(env.EFFECTS_FILE, 'utf8').split('\n').filter(Boolean);
    // What the killed process was about to write: `before k <type> <tool or round>[ + …]`.
    const batchOf = (line: string): string[] => line.split(' ').slice(2).join(' ').split(' + ');
    const at = killed.lines.find((line) => line.startsWith(`before ${k} `));
    const lost = at === undefined ? [] : batchOf(at);
    // A tool that ran in the killed process and whose outcome was not written before the kill.
    const unrecorded = (tool: string): boolean =>
      ranBeforeKill.includes(`${tool}(Oslo)`) &&
      !killed.lines.some(
        (line) =>
          line.startsWith('before ') &&
          Number(line.split(' ')[1]) < k &&
          batchOf(line).includes(`tool-outcome ${tool}`),
      );
    return { killed, resumed, effects, lost, unrecorded };
  }

  // Uninterrupted: the process runs the whole run, prints the answer, and is killed after.
  it(`runs the whole run when killed after its last append (the baseline)`, async () => {
    const { killed, resumed, effects } = await killAndResume(APPENDS + 1);
    uninterrupted = resultOf(killed);
    // One append per step that must be durable: the searches' outcomes wait for round 2,
    // a side effect's start and outcome are each written before the loop goes on.
    const batches = killed.lines.flatMap((line) =>
      line.startsWith('before ') ? [line.split(' ').slice(2).join(' ')] : [],
    );
    expect(batches).toEqual(BATCHES);
    expect(uninterrupted.text).toContain('booked Oslo; mailed Oslo');
    // Resumed after the end: the same answer, replayed; no model call, no tool.
    expect(resultOf(resumed)).toEqual(uninterrupted);
    expect(effects).toEqual([
      'model(1)',
      'search(Oslo)',
      'search(Bergen)',
      'model(2)',
      'book(Oslo)',
      'mail(Oslo)',
      'model(3)',
    ]);
  });

  it.each(Array.from({ length: APPENDS }, (_, i) => i + 1))(
    'killed before append %i: resumed in a fresh process, no round lost, no side effect twice',
    async (k) => {
      if (uninterrupted === undefined) throw new Error('the baseline did not run');
      const { resumed, effects, lost, unrecorded } = await killAndResume(k);
      const result = resultOf(resumed);
      expect(result.usage).toEqual(uninterrupted.usage);
      // A tool that is not idempotent ran exactly once, whatever the kill point.
      expect(count(effects, 'book(Oslo)')).toBe(1);
      expect(count(effects, 'mail(Oslo)')).toBe(1);
      // A round is asked of the model again only when it was in flight (not recorded).
      for (const round of [1, 2, 3]) {
        const inFlight = lost.includes(`model-round ${round}`);
        expect(count(effects, `model(${round})`)).toBe(inFlight ? 2 : 1);
      }
      // An idempotent search whose outcome was not recorded may run again; once recorded, never.
      for (const city of ['Oslo', 'Bergen']) {
        if (k > SEARCHES_RECORDED_BY) expect(count(effects, `search(${city})`)).toBe(1);
        expect(count(effects, `search(${city})`)).toBeLessThanOrEqual(2);
      }
      // A booking or mail that ran without a recorded outcome was not run again: the
      // person checking it said so, and the model was told.
      let expected = uninterrupted.text;
      if (unrecorded('book')) {
        expected = expected.replace('booked Oslo', 'denied by the user: it already ran');
      }
      if (unrecorded('mail')) {
        expected = expected.replace('mailed Oslo', 'denied by the user: it already ran');
      }
      expect(result.text).toBe(expected);
    },
  );
}

beforeAll(() => {
  bundle = join(mkdtempSync(join(tmpdir(), 'rx-advisors-kill-child-')), 'kill-child.cjs');
  buildSync({
    entryPoints: [join(ROOT, CHILD)],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    outfile: bundle,
    external: ['better-sqlite3', 'redis', 'pg'],
    logLevel: 'warning',
  });
});
afterAll(() => rmSync(dirname(bundle), { recursive: true, force: true }));

describe('a durable run killed at every append boundary (SQLite, real child processes)', () => {
  let files: string;
  beforeAll(() => {
    files = mkdtempSync(join(tmpdir(), 'rx-advisors-kill-sqlite-'));
  });
  afterAll(() => rmSync(files, { recursive: true, force: true }));
  killSuite((k) => ({ STORE: 'sqlite', DB_FILE: join(files, `runs-${k}.db`) }));
});

const redis = redisPlan();
describeWith(redis)(
  'a durable run killed at every append boundary (Redis, real child processes)',
  () => {
    let server: StoreServer;
    beforeAll(async () => {
      server = await redis.start();
    }, 60_000);
    afterAll(() => server?.dispose(), 30_000);
    killSuite((k) => ({
      STORE: 'redis',
      REDIS_URL: server.url,
      KEY_PREFIX: `rx-kill:${process.pid}:${k}:`,
    }));
  },
);

const postgres = postgresPlan();
describeWith(postgres)(
  'a durable run killed at every append boundary (PostgreSQL, real child processes)',
  () => {
    let server: StoreServer;
    beforeAll(async () => {
      server = await postgres.start();
    }, 60_000);
    afterAll(() => server?.dispose(), 30_000);
    killSuite((k) => ({
      STORE: 'postgres',
      DATABASE_URL: server.url,
      TABLE_NAME: `rx_kill_${process.pid}_${k}`,
    }));
  },
);
