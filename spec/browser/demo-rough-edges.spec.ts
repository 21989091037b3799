// The demo page's rough edges (issue 14, point 5), in headless Chromium: long words wrap,
// over-long input and a stopped server are said in words, usage shows only what is known,
// a reload mid-answer resumes it (only Stop and closing the tab cancel), and the history
// after a reload shows tool calls, usage and stopped answers as they were shown live.
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { tap } from 'rxjs';
import type { ChatModel } from '../../lib/index';
import { startDemoServer, type DemoServer } from '../../examples/demo/demo-server';
import { OfflineDemoModel } from '../../examples/demo/offline-demo-model';
import { FIXED_NOW, tempDataDir } from '../examples/demo-test-kit';
import { describeWithChromium } from './support/headless-chromium';

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const TOKYO_AND_PARIS =
  '(offline demo model) It is 21:30 on Monday 2024-01-15 in Tokyo (Asia/Tokyo). It is 13:30 on Monday 2024-01-15 in Paris (Europe/Paris).';

jest.setTimeout(120_000);

let browser: Browser;
let server: DemoServer;
const watch = { calls: 0, completed: 0, unsubscribed: 0 };

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`No Chromium at ${CHROMIUM}: see scripts/ensure-chromium.mjs.`);
  }
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
  });
  const offline = new OfflineDemoModel({ interval: 40, firstChunkDelay: 100 });
  const model: ChatModel = {
    provider: offline.provider,
    stream: (request) => {
      watch.calls++;
      return offline
        .stream(request)
        .pipe(tap({ complete: () => watch.completed++, unsubscribe: () => watch.unsubscribed++ }));
    },
  };
  server = await startDemoServer({ port: 0, model, dataDir: tempDataDir(), now: () => FIXED_NOW });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function openPage(width = 1000): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height: 760 } });
  await page.goto(server.url);
  await page.waitForSelector('body[data-ready="true"]');
  return page;
}

const usages = (page: Page) =>
  page.$$eval('.message.assistant .usage', (nodes) => nodes.map((n) => n.textContent));

describeWithChromium('demo page rough edges', () => {
  it.each([1000, 390])('wraps a 4,000-character word in a %i px wide page', async (width) => {
    const page = await openPage(width);
    try {
      await page.fill('#message', 'x'.repeat(4000));
      await page.press('#message', 'Enter');
      await page.waitForSelector('.message.user');
      const { scrollWidth, innerWidth } = await page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        innerWidth: window.innerWidth,
      }));
      expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
      await page.waitForFunction(`!document.querySelector('.message.assistant.streaming')`);
    } finally {
      await page.close();
    }
  });

  it('says that an over-long message is too long instead of cutting it', async () => {
    const page = await openPage();
    try {
      const before = (await page.$$('.message.user')).length;
      await page.fill('#message', 'y'.repeat(4001));
      expect(await page.inputValue('#message')).toHaveLength(4001); // nothing cut
      expect(await page.textContent('#input-hint')).toBe(
        'Your message has 4,001 characters; the demo accepts at most 4,000. Shorten it to send it.',
      );
      await page.press('#message', 'Enter');
      expect(await page.$$('.message.user')).toHaveLength(before); // not sent
      await page.fill('#message', 'short');
      expect(await page.isHidden('#input-hint')).toBe(true);
    } finally {
      await page.close();
    }
  });

  it('resumes the answer after a reload mid-answer, without cancelling the model', async () => {
    const page = await openPage();
    try {
      await page.click('#reset');
      const before = { ...watch };
      await page.fill('#message', 'What time is it in Tokyo and in Paris?');
      await page.press('#message', 'Enter');
      await page.waitForFunction(
        `document.querySelector('.message.assistant.streaming .answer')?.textContent.length > 0`,
      );
      await page.reload();
      await page.waitForSelector('body[data-ready="true"]');
      await page.waitForFunction(
        `[...document.querySelectorAll('.message.assistant .usage')].some((u) => u.textContent !== '')`,
      );
      expect(
        await page.$$eval('.message', (nodes: Element[]) => nodes.map((e) => e.className)),
      ).toEqual(['message user', 'message assistant']);
      expect(await page.textContent('.message.assistant .answer')).toBe(TOKYO_AND_PARIS);
      expect(await page.$$('.tool-call')).toHaveLength(2);
      // Past the 3 s grace of the pagehide cancel: the resume called it off.
      await new Promise((resolve) => setTimeout(resolve, 3500));
      expect(watch.unsubscribed).toBe(before.unsubscribed);
      expect(watch.completed).toBe(before.completed + 2);
    } finally {
      await page.close();
    }
  });

  it('shows tool calls and usage after a reload, and a stopped answer as it was shown', async () => {
    const page = await openPage();
    try {
      await page.click('#reset');
      await page.fill('#message', 'What time is it in Tokyo and in Paris?');
      await page.press('#message', 'Enter');
      await page.waitForFunction(
        `document.querySelector('.message.assistant .usage')?.textContent !== ''`,
      );
      await page.fill('#message', 'And in Tokyo alone?');
      await page.press('#message', 'Enter');
      await page.waitForFunction(
        `document.querySelectorAll('.message.assistant .answer')[1]?.textContent.length > 0`,
      );
      await page.click('#stop');
      await page.waitForFunction(
        `document.querySelectorAll('.message.assistant .usage')[1]?.textContent !== ''`,
      );
      const live = await usages(page);
      expect(live[0]).toMatch(
        /^usage: \d+ in · \d+ out · \d+ total tokens · 2 model calls · finish: stop$/,
      );
      expect(live[1]).not.toContain('?');
      expect(live[1]).toMatch(/stopped$/);
      const stoppedText = await page.$$eval(
        '.message.assistant .answer',
        (n) => n[1].firstChild!.textContent,
      );

      const liveToolCalls = (await page.$$('.tool-call')).length;
      expect(liveToolCalls).toBeGreaterThanOrEqual(2);

      await page.reload();
      await page.waitForSelector('body[data-ready="true"]');
      expect(await page.$$('.tool-call')).toHaveLength(liveToolCalls);
      expect(await usages(page)).toEqual([live[0], 'stopped']);
      const answers = await page.$$eval('.message.assistant .answer', (n): string[] =>
        n.map((e) => e.textContent ?? ''),
      );
      // The saved partial answer is what the server had streamed when the Stop reached it:
      // what the page showed, plus the deltas still in flight (none, or a few words).
      expect(answers[0]).toBe(TOKYO_AND_PARIS);
      expect(answers).toHaveLength(2);
      expect(answers[1].startsWith(stoppedText!.trimEnd())).toBe(true);
      expect(answers[1]).toMatch(/ \(stopped\)$/);
    } finally {
      await page.close();
    }
  });

  it('closing the page cancels its answer once the 3 s grace has passed without a resume', async () => {
    const slow = new OfflineDemoModel({ interval: 300 });
    const ended = { completed: 0, unsubscribed: 0 };
    const own = await startDemoServer({
      port: 0,
      model: {
        provider: slow.provider,
        stream: (request) =>
          slow
            .stream(request)
            .pipe(
              tap({ complete: () => ended.completed++, unsubscribe: () => ended.unsubscribed++ }),
            ),
      },
      dataDir: tempDataDir(),
      now: () => FIXED_NOW,
    });
    try {
      const page = await browser.newPage();
      await page.goto(own.url);
      await page.waitForSelector('body[data-ready="true"]');
      await page.fill('#message', 'What time is it in Tokyo and in Paris?');
      await page.press('#message', 'Enter');
      await page.waitForFunction(
        `document.querySelector('.message.assistant.streaming .answer')?.textContent.length > 0`,
      );
      const closedAt = Date.now();
      await page.close();
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(ended.unsubscribed).toBe(0); // within the grace: a reload could still resume it
      while (ended.unsubscribed === 0 && Date.now() - closedAt < 8000) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(ended).toEqual({ completed: 1, unsubscribed: 1 }); // round 1 done, round 2 cancelled
      expect(Date.now() - closedAt).toBeGreaterThanOrEqual(3000);
    } finally {
      await own.close();
    }
  });

  it('says in words that the server cannot be reached', async () => {
    const own = await startDemoServer({
      port: 0,
      model: new OfflineDemoModel(),
      dataDir: tempDataDir(),
      now: () => FIXED_NOW,
    });
    const page = await browser.newPage();
    try {
      await page.goto(own.url);
      await page.waitForSelector('body[data-ready="true"]');
      await own.close();
      await page.fill('#message', 'Hello?');
      await page.press('#message', 'Enter');
      const failure = await page.waitForSelector('.failure');
      expect(await failure.textContent()).toBe(
        'Error: could not reach the demo server. Is it still running? Start it again with npm start, then resend.',
      );
      expect(await page.textContent('.message.assistant .usage')).toBe('failed');
    } finally {
      await page.close();
    }
  });
});
