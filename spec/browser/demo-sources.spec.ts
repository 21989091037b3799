// The demo's document set in a real browser (headless Chromium via playwright-core): a
// question the documents answer shows the documents found as sources under the answer,
// each linking to the document's text; a reload shows them again from the history; a
// question they do not cover shows none. A screenshot lands in test-output/demo-sources.png.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { loadDemoDocs } from '../../examples/demo/demo-docs';
import { startDemoServer, type DemoServer } from '../../examples/demo/demo-server';
import { OfflineDemoModel } from '../../examples/demo/offline-demo-model';
import { OfflineEmbeddingModel } from '../../examples/demo/offline-embedding-model';
import { FIXED_NOW, tempDataDir } from '../examples/demo-test-kit';
import { describeWithChromium } from './support/headless-chromium';

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const OUTPUT_DIR = join(__dirname, '..', '..', 'test-output');

jest.setTimeout(120_000);

describeWithChromium('demo page: sources under an answer', () => {
  let browser: Browser;
  let server: DemoServer;
  let page: Page;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM}; set CHROMIUM_PATH.`);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
    });
    const docs = await loadDemoDocs({
      embeddingModel: new OfflineEmbeddingModel(),
      similarityThreshold: 0.15,
      embeddingDescription: 'offline',
    });
    server = await startDemoServer({
      port: 0,
      model: new OfflineDemoModel({ interval: 5, firstChunkDelay: 20 }),
      dataDir: tempDataDir(),
      now: () => FIXED_NOW,
      docs,
    });
    page = await browser.newPage({ viewport: { width: 1000, height: 760 } });
    mkdirSync(OUTPUT_DIR, { recursive: true });
  });

  afterAll(async () => {
    await page?.close();
    await server?.close();
    await browser?.close();
  });

  const ask = async (question: string, answers: number): Promise<void> => {
    await page.fill('#message', question);
    await page.press('#message', 'Enter');
    await page.waitForFunction(
      `document.querySelectorAll('.message.assistant').length === ${answers} && !document.querySelector('.message.assistant.streaming') && document.querySelectorAll('.message.assistant')[${answers - 1}].querySelector('.usage').textContent !== ''`,
    );
  };

  /** Per answer: the child classes in DOM order, and the sources' texts and links. */
  const answers = (): Promise<{ order: string[]; sources: { text: string; href: string }[] }[]> =>
    page.$$eval('.message.assistant', (nodes) =>
      nodes.map((node) => ({
        order: Array.from(node.children)
          .filter((child) => child.textContent !== '')
          .map((child) => String(child.className)),
        sources: Array.from(node.querySelectorAll('.sources .source')).map((source) => ({
          text: source.textContent ?? '',
          href: source.querySelector('a')?.getAttribute('href') ?? '',
        })),
      })),
    );

  it('lists the documents found under the answer, linked to their text, and again after a reload', async () => {
    await page.goto(server.url);
    await page.waitForSelector('body[data-ready="true"]');
    expect(await page.textContent('#docs')).toMatch(/^Documents: Approving a tool call, /);

    await ask('Does the demo remember my conversation?', 1);
    const [first] = await answers();
    expect(first.order).toEqual(['answer', 'sources', 'usage']); // the sources sit under the answer
    expect(first.sources[0]).toEqual({
      text: 'Chat memory (memory.md)',
      href: '/api/docs/memory',
    });
    expect(await page.textContent('.message.assistant .sources')).toMatch(/^Sources:Chat memory/);
    expect(await page.textContent('.message.assistant .answer')).toBe(
      '(offline demo model) From the demo\'s documents ("Chat memory"): The demo remembers the conversation of this browser session. A session cookie names the conversation, and the messages are kept in a SQLite file under the data folder (or in PostgreSQL when DATABASE_URL is set).',
    );
    await page.screenshot({ path: join(OUTPUT_DIR, 'demo-sources.png'), fullPage: true });

    // The linked document opens as its text.
    const doc = await page.request.get(new URL(first.sources[0].href, server.url).href);
    expect(await doc.text()).toMatch(/^# Chat memory\n/);

    // A question the documents do not cover: an answer without sources.
    await ask('Hello', 2);
    expect((await answers())[1].sources).toEqual([]);

    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
    const reloaded = await answers();
    expect(reloaded.map((answer) => answer.sources)).toEqual([first.sources, []]);
  });
});
