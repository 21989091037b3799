// Issue 29: a guardrail that trips mid-answer withdraws what useChat already shows. The page
// (examples/guardrails/client.ts, bundled here with esbuild) is the AI SDK's React useChat
// rendering visibleUiParts(message.parts); the server streams a held answer through a
// GuardrailsAdvisor on the 'ai-sdk-ui' protocol, in headless Chromium.
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { concat, concatMap, from, map, Subject, take, ignoreElements, timer } from 'rxjs';
import { ChatClient, type ChatChunk } from '../../lib/index';
import { GuardrailsAdvisor, wordGuardrail } from '../../lib/guardrails/index';
import { pipeToNodeResponse, uiMessagesToMessages, type UiMessage } from '../../lib/sse/index';
import { MockChatModel } from '../../lib/testing/index';
import { close, listen } from '../sse/support/sse-test-kit';
import { launchHeadlessChromium } from './support/headless-chromium';

jest.setTimeout(120_000);

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8" /><title>guardrails</title></head>
<body><div id="root"></div><script type="module" src="/app.js"></script></body></html>`;

describe('guardrail withdrawal in useChat (headless Chromium)', () => {
  let browser: Browser;
  let server: Server;
  let url: string;
  let page: Page;
  const gate = new Subject<void>();

  beforeAll(async () => {
    const bundle = await build({
      entryPoints: [join(__dirname, '../../examples/guardrails/client.ts')],
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      define: { 'process.env.NODE_ENV': '"production"' },
      logLevel: 'silent',
    });
    const js = bundle.outputFiles[0].text;
    const deltas = (texts: string[]) =>
      from(texts).pipe(
        concatMap((text) => timer(5).pipe(map((): ChatChunk => ({ type: 'text-delta', text })))),
      );
    // The answer streams its harmless start, waits for the test, then names the code name.
    const model = MockChatModel.respond(() =>
      concat(
        deltas(['Our ', 'next ', 'launch ', 'is ', 'planned. ', 'It ', 'is ', 'called ']),
        gate.pipe(take(1), ignoreElements()),
        deltas(['proj', 'ect ze', 'bra, ', 'soon.']),
        from<ChatChunk[]>([{ type: 'finish', reason: 'stop' }]),
      ),
    );
    const codeNames = wordGuardrail({
      name: 'code-names',
      words: ['project zebra'],
      message: 'I cannot talk about that.',
    });
    const client = ChatClient.builder(model)
      .defaultAdvisors(new GuardrailsAdvisor({ output: [codeNames] }))
      .build();
    server = createServer((req, res) => {
      if (req.method === 'GET' && req.url === '/') {
        res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
        return;
      }
      if (req.method === 'GET' && req.url === '/app.js') {
        res.writeHead(200, { 'content-type': 'text/javascript' }).end(js);
        return;
      }
      if (req.method !== 'POST' || req.url !== '/api/chat') {
        res.writeHead(404).end();
        return;
      }
      let body = '';
      req.on('data', (data: Buffer) => (body += data.toString()));
      req.on('end', () => {
        const { messages } = JSON.parse(body) as { messages: UiMessage[] };
        const history = uiMessagesToMessages({ messages });
        const chunks$ = client
          .prompt()
          .messages(...history)
          .stream()
          .chunks();
        pipeToNodeResponse(chunks$, res, { protocol: 'ai-sdk-ui', heartbeat: false });
      });
    });
    url = await listen(server);
    browser = await launchHeadlessChromium();
    page = await browser.newPage();
  });

  afterAll(async () => {
    await browser?.close();
    if (server !== undefined) await close(server);
  });

  const assistantText = () =>
    page.evaluate(() =>
      Array.from(
        document.querySelectorAll('.message.assistant .text'),
        (p) => p.textContent ?? '',
      ).join(''),
    );

  it('shows the partial answer, then withdraws it when the guardrail trips', async () => {
    await page.goto(url);
    await page.fill('#message', 'What is next?');
    await page.click('#send');
    await page.waitForFunction(() =>
      document.querySelector('.message.assistant .text')?.textContent?.includes('Our next launch'),
    );
    expect(await assistantText()).toContain('Our next launch is planned.');
    gate.next();
    await page.waitForSelector('.message.assistant .tripped');
    await page.waitForSelector('[data-status="ready"]');
    expect(await assistantText()).toBe('I cannot talk about that.');
    const pageText = await page.evaluate(() => document.body.innerText);
    expect(pageText).not.toMatch(/zebra|proj/i);
    expect(pageText).not.toContain('Our next launch');
  });
});
