// Every advisor an entry point exports checks `name` and `order` the one way
// (ADVISOR_IDENTITY_RULES, lib/advisor-api/validate-advisor-identity.ts) and, when it has a
// default order, that order is an `Order` constant. The advisors are found by reading every
// entry point of scripts/entry-points.json, so a new advisor without a row here fails.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { of } from 'rxjs';
import {
  EvaluationAdvisor,
  FallbackAdvisor,
  InvalidOptionsError,
  LoggerAdvisor,
  MessageChatMemoryAdvisor,
  Order,
  PromptCachingAdvisor,
  PromptChatMemoryAdvisor,
  ReReadingAdvisor,
  RetryAdvisor,
  SafeGuardAdvisor,
  StructuredOutputValidationAdvisor,
  SummarizingChatMemoryAdvisor,
  ToolCallingAdvisor,
  ContextEditingAdvisor,
  advisor,
  type Advisor,
} from '../../lib/index';
import { recursiveAdvisor } from '../../lib/advisor-api/index';
import {
  QuestionAnswerAdvisor,
  RetrievalAugmentationAdvisor,
  VectorStoreChatMemoryAdvisor,
  type VectorStore,
} from '../../lib/rag/index';
import { mcpToolsAdvisor } from '../../lib/mcp/index';
import { OpenTelemetryAdvisor } from '../../lib/otel/index';
import { MockChatModel } from '../../lib/testing/index';
import { BudgetAdvisor, ChatClient, HandoffAdvisor } from '../../lib/index';
import { DurableRunAdvisor, InMemoryRunJournal } from '../../lib/run/index';
import { GuardrailsAdvisor } from '../../lib/guardrails/index';

const root = resolve(__dirname, '../..');
const { entryPoints } = JSON.parse(
  readFileSync(join(root, 'scripts', 'entry-points.json'), 'utf8'),
) as { entryPoints: { name: string; source: string }[] };

interface Identity {
  name?: unknown;
  order?: unknown;
}
type Build = (identity: Identity) => Advisor;

const model = MockChatModel.script([{ text: 'ok' }]);
const vectorStore: VectorStore = {
  name: 'stub',
  add: () => of(undefined),
  delete: () => of(undefined),
  similaritySearch: () => of({ documents: [] }),
} as unknown as VectorStore;

// The factories take no default name (and `recursiveAdvisor()` no default order).
const required = { name: 'given', order: Order.DEFAULT };

/** Every exported advisor, built from its smallest valid options plus the identity. */
const builders: Record<string, Build> = {
  advisor: (id) => advisor({ name: 'given', ...id } as never),
  recursiveAdvisor: (id) =>
    recursiveAdvisor({ ...required, next: () => undefined, ...id } as never),
  LoggerAdvisor: (id) => new LoggerAdvisor(id as never),
  SafeGuardAdvisor: (id) => new SafeGuardAdvisor({ sensitiveWords: ['x'], ...id } as never),
  RetryAdvisor: (id) => new RetryAdvisor(id as never),
  FallbackAdvisor: (id) => new FallbackAdvisor({ models: [model], ...id } as never),
  EvaluationAdvisor: (id) =>
    new EvaluationAdvisor({ judge: () => ({ pass: true }), ...id } as never),
  ReReadingAdvisor: (id) => new ReReadingAdvisor(id as never),
  PromptCachingAdvisor: (id) => new PromptCachingAdvisor(id as never),
  StructuredOutputValidationAdvisor: (id) =>
    new StructuredOutputValidationAdvisor({ outputSchema: { type: 'object' }, ...id } as never),
  ToolCallingAdvisor: (id) => new ToolCallingAdvisor(id as never),
  MessageChatMemoryAdvisor: (id) => new MessageChatMemoryAdvisor(id as never),
  PromptChatMemoryAdvisor: (id) => new PromptChatMemoryAdvisor(id as never),
  SummarizingChatMemoryAdvisor: (id) =>
    new SummarizingChatMemoryAdvisor({ summarizer: () => of('summary'), ...id } as never),
  ContextEditingAdvisor: (id) => new ContextEditingAdvisor(id as never),
  QuestionAnswerAdvisor: (id) => new QuestionAnswerAdvisor({ vectorStore, ...id } as never),
  RetrievalAugmentationAdvisor: (id) =>
    new RetrievalAugmentationAdvisor({
      documentRetrievers: [{ retrieve: () => of([]) }],
      ...id,
    } as never),
  VectorStoreChatMemoryAdvisor: (id) =>
    new VectorStoreChatMemoryAdvisor({ vectorStore, ...id } as never),
  mcpToolsAdvisor: (id) =>
    mcpToolsAdvisor({ server: { url: 'http://127.0.0.1:9/mcp' }, ...id } as never),
  OpenTelemetryAdvisor: (id) => new OpenTelemetryAdvisor(id as never),
  BudgetAdvisor: (id) => new BudgetAdvisor({ maxOutputTokens: 100, ...id } as never),
  DurableRunAdvisor: (id) =>
    new DurableRunAdvisor({ journal: new InMemoryRunJournal(), ...id } as never),
  GuardrailsAdvisor: (id) => new GuardrailsAdvisor(id as never),
  HandoffAdvisor: (id) =>
    new HandoffAdvisor({
      handoffs: [
        { client: ChatClient.builder(model).build(), name: 'billing', description: 'Billing' },
      ],
      ...id,
    } as never),
};
const requiresName = ['advisor', 'recursiveAdvisor'];
const hasNoDefaultOrder = new Set(['recursiveAdvisor']);

/** An exported class with an `advise` method, or a function named like an advisor factory. */
function isAdvisorExport(name: string, value: unknown): boolean {
  if (typeof value !== 'function') return false;
  const prototype = (value as { prototype?: { advise?: unknown } }).prototype;
  if (typeof prototype?.advise === 'function') return true;
  return /^[a-z]\w*Advisor$|^advisor$/.test(name);
}

function exportedAdvisors(): string[] {
  const names = new Set<string>();
  for (const { source } of entryPoints) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const entry = require(join(root, source)) as Record<string, unknown>;
    for (const [name, value] of Object.entries(entry)) {
      if (isAdvisorExport(name, value)) names.add(name);
    }
  }
  return [...names].sort();
}

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

const orderValues = new Set<number>(Object.values(Order));
const rows = Object.entries(builders);

describe('every exported advisor checks name and order the one way', () => {
  it('has a row here for every advisor an entry point exports', () => {
    expect(exportedAdvisors()).toEqual(Object.keys(builders).sort());
  });

  it.each(rows)('%s: takes a name and an order', (_, build) => {
    // Next to its default, where each advisor accepts an order (some refuse the loop's inside).
    const order = build({}).order - 1;
    const built = build({ name: 'mine', order });
    expect(built.name).toBe('mine');
    expect(built.order).toBe(order);
  });

  it.each(rows)('%s: an empty name is an InvalidOptionsError for `name`', (_, build) => {
    const error = thrown(() => build({ name: '' }));
    expect(InvalidOptionsError.isInstance(error)).toBe(true);
    expect((error as InvalidOptionsError).option).toBe('name');
  });

  it.each(rows)(
    '%s: an order that is not a number is an InvalidOptionsError for `order`',
    (_, build) => {
      for (const order of [Number.NaN, '1', null]) {
        const error = thrown(() => build({ order }));
        expect(InvalidOptionsError.isInstance(error)).toBe(true);
        expect((error as InvalidOptionsError).option).toBe('order');
      }
    },
  );

  it.each(rows.filter(([name]) => !hasNoDefaultOrder.has(name)))(
    '%s: its default order is an Order constant',
    (_, build) => {
      expect(orderValues.has(build({}).order)).toBe(true);
    },
  );

  it.each(requiresName)('%s: a missing name is an InvalidOptionsError', (name) => {
    const error = thrown(() => builders[name]({ name: undefined }));
    expect(InvalidOptionsError.isInstance(error)).toBe(true);
    expect((error as InvalidOptionsError).option).toBe('name');
  });

  it.each([...hasNoDefaultOrder])('%s: a missing order is an InvalidOptionsError', (name) => {
    const error = thrown(() => builders[name]({ order: undefined }));
    expect(InvalidOptionsError.isInstance(error)).toBe(true);
    expect((error as InvalidOptionsError).option).toBe('order');
  });

  it('keeps the deprecated DEFAULT_ORDER statics equal to their Order constant', () => {
    const statics: [{ DEFAULT_ORDER: number }, number][] = [
      [QuestionAnswerAdvisor, Order.QUESTION_ANSWER],
      [RetrievalAugmentationAdvisor, Order.QUESTION_ANSWER],
      [FallbackAdvisor, Order.FALLBACK],
      [PromptCachingAdvisor, Order.PROMPT_CACHING],
      [ReReadingAdvisor, Order.RE_READING],
      [RetryAdvisor, Order.RETRY],
    ];
    for (const [advisorClass, order] of statics) expect(advisorClass.DEFAULT_ORDER).toBe(order);
  });
});
