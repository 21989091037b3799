// The demo page in a real browser: Debian's Chromium (headless) driven by playwright-core.
// It opens the page, asks a question, and sees the tool calls and the streamed text appear.
// A screenshot is kept in test-output/ (gitignored) with the rest of the test output.
// The second part cuts every chat response mid-answer (the server's test hook) and sees the
// page resume the stream with Last-Event-ID, and Stop cancel it on the server. Closing the
// page and reloading it mid-answer: spec/browser/demo-rough-edges.spec.ts.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { tap } from 'rxjs';
import type { ChatModel } from '../../lib/index';
import { startDemoServer, type DemoServer } from '../../examples/demo/demo-server';
import { OfflineDemoModel } from '../../examples/demo/offline-demo-model';
import { FIXED_NOW, tempDataDir } from '../examples/demo-test-kit';
import { describeWithChromium } from './support/headless-chromium';

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const OUTPUT_DIR = join(__dirname, '..', '..', 'test-output');

const TOKYO_AND_PARIS =
  '(offline demo model) It is 21:30 on Monday 2024-01-15 in Tokyo (Asia/Tokyo). It is 13:30 on Monday 2024-01-15 in Paris (Europe/Paris).';

jest.setTimeout(120_000);

let browser: Browser;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `No Chromium at ${CHROMIUM}. Install Debian's package (apt-get install -y chromium; .ci/run does) or set CHROMIUM_PATH.`,
    );
  }
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
});

afterAll(async () => {
  await browser?.close();
});

describeWithChromium('demo page in headless Chromium', () => {
  let server: DemoServer;
  let page: Page;

  beforeAll(async () => {
    server = await startDemoServer({
      port: 0,
      // Slow enough that the page visibly renders the answer word by word.
      model: new OfflineDemoModel({ interval: 40, firstChunkDelay: 100 }),
      modelDescription: 'the offline demo model (browser test)',
      dataDir: tempDataDir(),
      now: () => FIXED_NOW,
    });
    page = await browser.newPage({ viewport: { width: 1000, height: 760 } });
    mkdirSync(OUTPUT_DIR, { recursive: true });
  });

  afterAll(async () => {
    await page?.close();
    await server?.close();
  });

  /** The lengths the latest answer's text had, recorded on every DOM change. */
  const recordAnswerLengths = (): Promise<void> =>
    page.evaluate(`(() => {
      window.answerLengths = [];
      new MutationObserver(() => {
        const answers = document.querySelectorAll('.message.assistant .answer');
        const last = answers[answers.length - 1];
        if (last) window.answerLengths.push(last.textContent.length);
      }).observe(document.getElementById('log'), { subtree: true, childList: true, characterData: true });
    })()`);

  it('asks a question and sees tool calls, then the answer streaming in, then usage', async () => {
    await page.goto(server.url);
    await page.waitForSelector('body[data-ready="true"]');
    expect(await page.textContent('#model')).toBe('the offline demo model (browser test)');
    await recordAnswerLengths();

    await page.fill('#message', 'What time is it in Tokyo and in Paris?');
    await page.press('#message', 'Enter');

    // The tool calls show up live, while the answer is still streaming.
    const firstCall = await page.waitForSelector('.message.assistant.streaming .tool-call');
    expect(await firstCall.textContent()).toContain('getTime({"city":"Tokyo"})');
    // Text appears before the stream ends.
    await page.waitForFunction(
      `(() => { const m = document.querySelector('.message.assistant'); return m.classList.contains('streaming') && m.querySelector('.answer').textContent.length > 0; })()`,
    );
    await page.waitForFunction(
      `document.querySelector('.message.assistant .usage').textContent !== ''`,
    );

    const calls = await page.$$eval('.tool-call', (nodes) => nodes.map((n) => n.textContent));
    expect(calls).toHaveLength(2);
    expect(calls[0]).toMatch(/^donegetTime\(\{"city":"Tokyo"\}\)→ \{.*"time":"21:30"/);
    expect(calls[1]).toMatch(/^donegetTime\(\{"city":"Paris"\}\)→ \{.*"time":"13:30"/);
    expect(await page.textContent('.message.assistant .answer')).toBe(TOKYO_AND_PARIS);
    expect(await page.textContent('.message.assistant .usage')).toMatch(
      /^usage: \d+ in · \d+ out · \d+ total tokens · 2 model calls · finish: stop$/,
    );
    // Streamed: the answer grew through many intermediate lengths, not in one go.
    const lengths = await page.evaluate<number[]>('window.answerLengths');
    expect(new Set(lengths.filter((n) => n > 0)).size).toBeGreaterThan(5);
  });

  it('shows a failed tool call, and remembers the session across a reload', async () => {
    await page.fill('#message', 'What time is it in Atlantis?');
    await page.press('#message', 'Enter');
    const failed = await page.waitForSelector('.tool-call.error');
    expect(await failed.textContent()).toContain('Unknown city "Atlantis"');
    await page.waitForFunction(
      `document.querySelectorAll('.message.assistant .usage')[1]?.textContent !== ''`,
    );
    expect(await page.$$eval('.message.assistant .answer', (n) => n[1]?.textContent)).toBe(
      '(offline demo model) Sorry, that did not work. The tool "getTime" failed: Unknown city "Atlantis".',
    );
    await page.screenshot({ path: join(OUTPUT_DIR, 'demo-page.png'), fullPage: true });

    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
    const messages = await page.$$eval('.message', (nodes) =>
      nodes.map((n) =>
        n.classList.contains('user')
          ? `user: ${n.textContent}`
          : `assistant: ${n.querySelector('.answer')!.textContent}`,
      ),
    );
    expect(messages).toEqual([
      'user: What time is it in Tokyo and in Paris?',
      expect.stringMatching(/^assistant: \(offline demo model\) It is 21:30/),
      'user: What time is it in Atlantis?',
      expect.stringMatching(/^assistant: \(offline demo model\) Sorry, that did not work\./),
    ]);
    // The history shows the tool calls (the failed one too) and the usage lines again.
    expect(await page.$$('.tool-call')).toHaveLength(3);
    expect(await page.$$('.tool-call.error')).toHaveLength(1);
    expect(
      await page.$$eval('.message.assistant .usage', (n) => n.map((e) => e.textContent)),
    ).toEqual([
      expect.stringMatching(
        /^usage: \d+ in · \d+ out · \d+ total tokens · 2 model calls · finish: stop$/,
      ),
      expect.stringMatching(
        /^usage: \d+ in · \d+ out · \d+ total tokens · 2 model calls · finish: stop$/,
      ),
    ]);
  });
});

describeWithChromium('demo page: a dropped connection is resumed, Stop cancels', () => {
  let server: DemoServer;
  let page: Page;
  const watch = { calls: 0, completed: 0, unsubscribed: 0 };
  /** The resume (GET) and cancel (DELETE) requests the page sent, with their Last-Event-ID. */
  let streamRequests: { method: string; lastEventId: string | undefined }[] = [];

  beforeAll(async () => {
    const offline = new OfflineDemoModel({ interval: 40, firstChunkDelay: 100 });
    const model: ChatModel = {
      provider: offline.provider,
      stream: (request) => {
        watch.calls++;
        return offline
          .stream(request)
          .pipe(
            tap({ complete: () => watch.completed++, unsubscribe: () => watch.unsubscribed++ }),
          );
      },
    };
    server = await startDemoServer({
      port: 0,
      model,
      dataDir: tempDataDir(),
      now: () => FIXED_NOW,
      cutChatResponsesAfterTextDeltas: 4, // test hook: every POST response drops mid-answer
    });
    page = await browser.newPage({ viewport: { width: 1000, height: 760 } });
    page.on('request', (request) => {
      if (/\/api\/chat\/[0-9a-f-]{36}$/.test(request.url())) {
        streamRequests.push({
          method: request.method(),
          lastEventId: request.headers()['last-event-id'],
        });
      }
    });
    await page.goto(server.url);
    await page.waitForSelector('body[data-ready="true"]');
  });

  afterAll(async () => {
    await page?.close();
    await server?.close();
  });

  it('shows the exact full answer once after the connection dropped mid-answer', async () => {
    // What the page shows over time: answer lengths and the connection notes.
    await page.evaluate(`(() => {
      window.answerTexts = [];
      window.connectionNotes = [];
      new MutationObserver(() => {
        const m = document.querySelector('.message.assistant');
        if (!m) return;
        window.answerTexts.push(m.querySelector('.answer').textContent);
        const note = m.querySelector('.connection').textContent;
        if (note) window.connectionNotes.push(note);
      }).observe(document.getElementById('log'), { subtree: true, childList: true, characterData: true });
    })()`);
    await page.fill('#message', 'What time is it in Tokyo and in Paris?');
    await page.press('#message', 'Enter');
    await page.waitForFunction(
      `document.querySelector('.message.assistant .usage').textContent !== ''`,
    );

    expect(await page.textContent('.message.assistant .answer')).toBe(TOKYO_AND_PARIS);
    expect(await page.$$('.failure')).toHaveLength(0);
    expect(await page.textContent('.message.assistant .usage')).toMatch(
      /2 model calls · finish: stop$/,
    );
    const calls = await page.$$eval('.tool-call', (nodes) => nodes.map((n) => n.textContent));
    expect(calls).toHaveLength(2); // not repeated by the resume
    // It did drop and resume: one GET after the last event seen, and the user saw a note.
    expect(streamRequests).toEqual([
      { method: 'GET', lastEventId: expect.stringMatching(/^\d+$/) },
    ]);
    expect(Number(streamRequests[0].lastEventId)).toBeGreaterThan(0);
    expect(await page.evaluate<string[]>('window.connectionNotes')).toContain(
      'Connection lost, resuming…',
    );
    expect(await page.textContent('.message.assistant .connection')).toBe('');
    // Every text shown was a prefix of the answer: nothing doubled, nothing out of order.
    const texts = await page.evaluate<string[]>('window.answerTexts');
    expect(texts.filter((t) => !TOKYO_AND_PARIS.startsWith(t))).toEqual([]);
    expect(new Set(texts.filter((t) => t !== '')).size).toBeGreaterThan(5);
    // The server ran the model once per round, to the end, and saved the turn once.
    expect(watch).toEqual({ calls: 2, completed: 2, unsubscribed: 0 });
    const history = await page.evaluate(`fetch('/api/history').then((r) => r.json())`);
    expect(history).toEqual({
      messages: [
        { role: 'user', content: 'What time is it in Tokyo and in Paris?' },
        expect.objectContaining({ role: 'assistant', toolCalls: expect.any(Array) }),
        expect.objectContaining({ role: 'tool' }),
        expect.objectContaining({ role: 'tool' }),
        expect.objectContaining({ role: 'assistant', content: TOKYO_AND_PARIS }),
      ],
    });
  });

  it('Stop cancels the stream on the server (DELETE) and the model is unsubscribed', async () => {
    streamRequests = [];
    await page.fill('#message', 'What time is it in Tokyo and in Paris?');
    await page.press('#message', 'Enter');
    await page.waitForFunction(
      `document.querySelectorAll('.message.assistant .answer')[1]?.textContent.length > 0`,
    );
    await page.click('#stop');
    await page.waitForFunction(
      `document.querySelectorAll('.message.assistant .usage')[1]?.textContent !== ''`,
    );
    expect(
      await page.$$eval('.message.assistant .failure', (n) => n.map((e) => e.textContent)),
    ).toEqual(['(stopped)']);
    expect(streamRequests.filter((r) => r.method === 'DELETE')).toHaveLength(1);
    // The DELETE reaches the server a moment after the page sent it.
    while (watch.unsubscribed === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(watch).toMatchObject({ calls: 4, completed: 3, unsubscribed: 1 });
    expect(server.resumableStreams).toBe(1); // only the finished first answer, kept for its ttl
  });

  it('drops the half-received frame of a broken response (a fresh parser per response)', async () => {
    // app.js's own readEvents over a body that breaks in the middle of event 2.
    const seen = await page.evaluate(`(async () => {
      const seen = [];
      let pulls = 0;
      const body = new ReadableStream({
        pull(controller) {
          if (pulls++ === 0) {
            controller.enqueue(new TextEncoder().encode(
              'id: 1\\nevent: text-delta\\ndata: {"text":"a"}\\n\\nid: 2\\nevent: text-delta\\ndata: {"text":"b"}\\n'));
          } else {
            controller.error(new TypeError('network error'));
          }
        },
      });
      await readEvents(body, (type, data, id) => seen.push([type, data, id]), new AbortController().signal);
      return seen;
    })()`);
    expect(seen).toEqual([['text-delta', '{"text":"a"}', '1']]);
  });
});
