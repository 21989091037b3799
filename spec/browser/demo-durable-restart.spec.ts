// Issue 26 point 5: restart the demo server mid-answer and the page finishes the answer.
// `examples/demo/main.ts` runs as `npm start` runs it (durable runs on, a SQLite journal
// under DEMO_DATA_DIR, in-memory resumable streams); headless Chromium asks a question, the
// server is SIGKILLed while the answer streams, started again on the same port with the same
// data folder, and the page, which keeps resuming with Last-Event-ID, ends with the whole
// answer: every word once, the same text the resumed run saved in memory.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { tempDataDir } from '../examples/demo-test-kit';
import { describeWithChromium, launchHeadlessChromium } from './support/headless-chromium';

jest.setTimeout(180_000);

const ROOT = join(__dirname, '..', '..');
const OUTPUT_DIR = join(ROOT, 'test-output');
const QUESTION = 'What time is it in Tokyo, in Paris, in London and in Sydney?';
const ANSWER =
  /^\(offline demo model\) It is \d\d:\d\d on \w+ \d{4}-\d\d-\d\d in Tokyo \(Asia\/Tokyo\)\. It is .+ in Paris \(Europe\/Paris\)\. It is .+ in London \(Europe\/London\)\. It is .+ in Sydney \(Australia\/Sydney\)\.$/;

interface Demo {
  child: ChildProcess;
  url: string;
  exited: Promise<number | null>;
}

/** Starts `main.ts` (the offline model, one word every 150 ms) and resolves with its URL. */
function startDemo(dataDir: string, port: number): Promise<Demo> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'examples/demo/main.ts'], {
    cwd: ROOT,
    env: {
      PATH: process.env['PATH'] ?? '',
      DEMO_DATA_DIR: dataDir,
      DEMO_DOCS: 'off',
      DEMO_OFFLINE_INTERVAL_MS: '150',
      PORT: String(port),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return new Promise((resolve, reject) => {
    const onData = (data: Buffer): void => {
      output += data.toString();
      const match = /open (http:\/\/127\.0\.0\.1:\d+\/)/.exec(output);
      if (match !== null) resolve({ child, url: match[1], exited });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then(() => reject(new Error(`the demo exited before printing a URL:\n${output}`)));
  });
}

async function stopDemo(demo: Demo | undefined): Promise<void> {
  if (demo === undefined || demo.child.exitCode !== null || demo.child.signalCode !== null) return;
  demo.child.kill('SIGTERM');
  const timer = setTimeout(() => demo.child.kill('SIGKILL'), 10_000);
  await demo.exited;
  clearTimeout(timer);
}

const answerText = (page: Page): Promise<string> =>
  page.$eval('.message.assistant .answer', (node) => node.textContent ?? '');

describeWithChromium('demo page: the server restarts mid-answer (durable runs)', () => {
  let browser: Browser;
  let page: Page;
  let first: Demo | undefined;
  let second: Demo | undefined;
  const dataDir = tempDataDir();
  /** The resume requests the page sent, with their Last-Event-ID and status. */
  const resumes: { lastEventId: string | undefined; status: number }[] = [];

  beforeAll(async () => {
    browser = await launchHeadlessChromium();
    mkdirSync(OUTPUT_DIR, { recursive: true });
  });
  afterAll(async () => {
    await page?.close();
    await browser?.close();
    await stopDemo(first);
    await stopDemo(second);
  });

  it('SIGKILL mid-answer, start again on the same port: the page ends with the whole answer once', async () => {
    first = await startDemo(dataDir, 0);
    const port = Number(new URL(first.url).port);
    page = await browser.newPage({ viewport: { width: 1000, height: 760 } });
    page.on('response', (response) => {
      const request = response.request();
      if (request.method() === 'GET' && /\/api\/chat\/[0-9a-f-]{36}$/.test(request.url())) {
        resumes.push({
          lastEventId: request.headers()['last-event-id'],
          status: response.status(),
        });
      }
    });
    await page.goto(first.url);
    await page.waitForSelector('body[data-ready="true"]');
    // Every change of the answer's text, to check it only ever grows.
    await page.evaluate(`(() => {
      window.answerTexts = [];
      new MutationObserver(() => {
        const answer = document.querySelector('.message.assistant .answer');
        if (answer) window.answerTexts.push(answer.textContent);
      }).observe(document.getElementById('log'), { subtree: true, childList: true, characterData: true });
    })()`);
    await page.fill('#message', QUESTION);
    await page.press('#message', 'Enter');

    // A few words in (the tool round is over and recorded), the process dies.
    await page.waitForFunction(
      `document.querySelector('.message.assistant .answer')?.textContent.split(' ').length > 6`,
    );
    first.child.kill('SIGKILL');
    await first.exited;
    const shownAtKill = await answerText(page);
    expect(shownAtKill).not.toMatch(ANSWER);
    await page.waitForSelector('.message.assistant.resuming');

    second = await startDemo(dataDir, port);
    await page.waitForFunction(
      `!document.querySelector('.message.assistant').classList.contains('streaming')`,
      undefined,
      { timeout: 60_000 },
    );
    await page.screenshot({ path: join(OUTPUT_DIR, 'demo-durable-restart.png'), fullPage: true });

    const answer = await answerText(page);
    expect(answer).toMatch(ANSWER); // complete, and no "Error:" or "(stopped)" after it
    expect(answer.startsWith(shownAtKill)).toBe(true);
    // Each city's sentence once: no text sent twice across the restart.
    for (const city of ['Tokyo', 'Paris', 'London', 'Sydney']) {
      expect(answer.split(`in ${city} (`)).toHaveLength(2);
    }
    const texts = await page.evaluate<string[]>('window.answerTexts');
    texts.reduce((previous, text) => {
      expect(text.startsWith(previous)).toBe(true);
      return text;
    }, '');
    // The page resumed the restarted server after its last event (an id with the run's units).
    const restored = resumes.find((r) => r.status === 200);
    expect(restored?.lastEventId).toMatch(/^\d+\.\d+$/);
    // Four tool calls, each shown once, done.
    const calls = await page.$$eval('.tool-call', (nodes) => nodes.map((n) => n.textContent));
    expect(calls).toHaveLength(4);
    expect(calls.every((call) => call?.startsWith('donegetTime'))).toBe(true);
    expect(await page.textContent('.message.assistant .usage')).toMatch(/finish: stop$/);

    // The resumed run saved the turn, once, with the text the page shows.
    const history = (await (
      await fetch(new URL('api/history', second.url), {
        headers: {
          cookie: (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; '),
        },
      })
    ).json()) as { messages: { role: string; content: string }[] };
    const said = history.messages.filter((m) => m.role !== 'tool' && m.content !== '');
    expect(said).toEqual([
      { role: 'user', content: QUESTION },
      expect.objectContaining({ role: 'assistant', content: answer }),
    ]);
  });
});
