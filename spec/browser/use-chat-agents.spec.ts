// Issue 28.5: a nested agent's progress on a real useChat page, in headless Chromium. The
// example's chat model (the planner) calls the `research` agent (`agentTool`: a ChatClient of
// its own); the route pipes the answer through `agentProgress()`, so the researcher's chunks
// reach useChat as one `data-agent-progress` part, replaced in place as it grows. The page
// renders nothing but useChat's `messages[].parts`: what is asserted below is what a user sees.
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import {
  concat,
  concatMap,
  defer,
  finalize,
  from,
  ignoreElements,
  map,
  Subject,
  take,
  timer,
} from 'rxjs';
import type { ChatChunk, ChatModel, ChatRequest } from 'rx-advisors';
import { buildClient, type ClientBundle } from '../../examples/use-chat/build-client';
import { createOfflineModel } from '../../examples/use-chat/offline-model';
import { researchNotes } from '../../examples/use-chat/research-agent';
import { startUseChatServer, type UseChatServer } from '../../examples/use-chat/use-chat-server';
import { eventually } from '../sse/support/sse-test-kit';
import { describeWithChromium, launchHeadlessChromium } from './support/headless-chromium';

jest.setTimeout(120_000);

const TASK = 'the tallest building';
const NOTES = researchNotes(TASK);
const NOTES_WORDS = NOTES.match(/\S+\s*/g)!;
/** What the researcher writes before it waits for the test's `release()`. */
const NOTES_START = NOTES_WORDS.slice(0, 5).join('');

/**
 * The researcher agent's model: the example's notes, word by word, except that it stops after
 * five words until the test calls `release()`, so the page is looked at mid-run.
 */
class HeldResearcherModel implements ChatModel {
  readonly provider = 'offline';
  private readonly gate = new Subject<void>();
  /** The tasks it was given (its user text), and the runs that ended. */
  readonly tasks: string[] = [];
  ended = 0;

  stream(request: ChatRequest): ReturnType<ChatModel['stream']> {
    return defer(() => {
      this.tasks.push(request.lastUserText ?? '');
      const deltas = (words: string[]) =>
        from(words).pipe(
          concatMap((text) => timer(5).pipe(map((): ChatChunk => ({ type: 'text-delta', text })))),
        );
      return concat(
        deltas(NOTES_WORDS.slice(0, 5)),
        this.gate.pipe(take(1), ignoreElements()),
        deltas(NOTES_WORDS.slice(5)),
        from<ChatChunk[]>([{ type: 'finish', reason: 'stop' }]),
      ).pipe(finalize(() => this.ended++));
    });
  }

  release(): void {
    this.gate.next();
  }

  get holding(): boolean {
    return this.gate.observed;
  }
}

/** The last answer's parts as the page shows them, one line per part. */
function shownParts(page: Page): Promise<string[]> {
  return page.$$eval('.message.assistant:last-of-type .part', (parts) =>
    parts.map((part) => {
      const kind = part.classList[1];
      if (kind === 'step-start') return 'step';
      if (kind === 'tool') {
        const output = part.querySelector('.output');
        return `tool ${part.querySelector('.call')?.textContent} ${(part as HTMLElement).dataset['state']}${output ? ` → ${output.textContent}` : ''}`;
      }
      if (kind === 'data-agent-progress') {
        const { agent, state } = (part as HTMLElement).dataset;
        return `agent ${agent} ${state}: ${part.querySelector('.text')?.textContent}`;
      }
      return `${kind}: ${part.textContent}`;
    }),
  );
}

/** The text the research agent's progress part shows, or `null` without one. */
function progressText(page: Page): Promise<string | null> {
  return page.evaluate(
    () => document.querySelector('.part.data-agent-progress .text')?.textContent ?? null,
  );
}

describeWithChromium('a nested agent on the useChat page, in headless Chromium', () => {
  let browser: Browser;
  let bundle: ClientBundle;
  let researcher: HeldResearcherModel;
  let server: UseChatServer;
  let page: Page;

  beforeAll(async () => {
    bundle = await buildClient({
      outdir: join(__dirname, '..', '..', 'test-output', 'use-chat-agents'),
    });
    browser = await launchHeadlessChromium();
  });

  afterAll(async () => {
    await browser?.close();
  });

  beforeEach(async () => {
    researcher = new HeldResearcherModel();
    server = await startUseChatServer({
      bundle,
      model: createOfflineModel({ interval: 5 }),
      researchModel: researcher,
      port: 0,
      heartbeat: false,
    });
    page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(server.url);
    await page.waitForSelector('#message');
    expect(errors).toEqual([]);
  });

  afterEach(async () => {
    await page?.close();
    await server?.close();
  });

  it("shows the researcher's progress while it runs, then its result and the planner's answer, in order", async () => {
    await page.fill('#message', `Research ${TASK}`);
    await page.press('#message', 'Enter');

    // Mid-run: the researcher has written five words and waits; the page shows them.
    await page.waitForFunction(
      (start) => document.querySelector('.part.data-agent-progress .text')?.textContent === start,
      NOTES_START,
    );
    expect(researcher.holding).toBe(true);
    expect(await page.$eval('.chat', (node) => (node as HTMLElement).dataset['status'])).toBe(
      'streaming',
    );
    expect(await shownParts(page)).toEqual([
      'step',
      'data-status: model call 1, reading 0 tool results',
      'text: I will ask the researcher.',
      `tool research({"task":"${TASK}"}) input-available`,
      `agent research running: ${NOTES_START}`,
    ]);

    // The progress grows in place (one part, replaced), not one part per chunk.
    researcher.release();
    await page.waitForSelector('.chat[data-status="ready"]');
    expect(await progressText(page)).toBe(NOTES);
    expect(await page.$$('.part.data-agent-progress')).toHaveLength(1);
    expect(await shownParts(page)).toEqual([
      'step',
      'data-status: model call 2, reading 1 tool result',
      'text: I will ask the researcher.',
      `tool research({"task":"${TASK}"}) output-available → ${NOTES}`,
      `agent research done: ${NOTES}`,
      'step',
      `text: research: ${NOTES}.`,
    ]);
    // The researcher ran once, on the task the planner's model gave it.
    expect(researcher.tasks).toEqual([TASK]);
    await eventually(() => researcher.ended === 1, 'the research run to end');
    expect(await page.$('.error')).toBeNull();
  });

  it('Stop while the researcher runs: the nested agent is unsubscribed too', async () => {
    await page.fill('#message', `Research ${TASK}`);
    await page.press('#message', 'Enter');
    await page.waitForFunction(
      (start) => document.querySelector('.part.data-agent-progress .text')?.textContent === start,
      NOTES_START,
    );
    expect(researcher.holding).toBe(true);

    await page.click('#stop');
    await page.waitForSelector('.chat[data-status="ready"]');
    // The DELETE ended the answer: the planner's loop, and with it the research run.
    await eventually(() => researcher.ended === 1, 'the research run to be unsubscribed');
    expect(researcher.holding).toBe(false);
    expect(await shownParts(page)).toEqual([
      'step',
      'data-status: model call 1, reading 0 tool results',
      'text: I will ask the researcher.',
      `tool research({"task":"${TASK}"}) input-available`,
      `agent research running: ${NOTES_START}`,
    ]);
  });
});
