import {
  EvaluationAdvisor,
  InvalidOptionsError,
  LoggerAdvisor,
  MessageChatMemoryAdvisor,
  Order,
  PromptChatMemoryAdvisor,
  RetryAdvisor,
  SafeGuardAdvisor,
  StructuredOutputValidationAdvisor,
  ToolCallingAdvisor,
  type Advisor,
} from '../../lib/index';

// Every built-in advisor, built from its options with `name` and `order` added.
const builders: [string, (extra: { name?: string; order?: number }) => Advisor][] = [
  ['SafeGuardAdvisor', (extra) => new SafeGuardAdvisor({ sensitiveWords: ['x'], ...extra })],
  ['LoggerAdvisor', (extra) => new LoggerAdvisor(extra)],
  ['RetryAdvisor', (extra) => new RetryAdvisor(extra)],
  [
    'EvaluationAdvisor',
    (extra) => new EvaluationAdvisor({ judge: () => ({ pass: true }), ...extra }),
  ],
  ['MessageChatMemoryAdvisor', (extra) => new MessageChatMemoryAdvisor(extra)],
  ['PromptChatMemoryAdvisor', (extra) => new PromptChatMemoryAdvisor(extra)],
  [
    'StructuredOutputValidationAdvisor',
    (extra) =>
      new StructuredOutputValidationAdvisor({ outputSchema: { type: 'object' }, ...extra }),
  ],
  ['ToolCallingAdvisor', (extra) => new ToolCallingAdvisor(extra)],
];

describe('built-in advisors take name and order the same way', () => {
  it.each(builders)('%s: a name option', (_, build) => {
    expect(build({ name: 'mine' }).name).toBe('mine');
  });

  it.each(builders)('%s: an order option', (_, build) => {
    // Outermost, where every advisor may sit (the prompt memory advisor refuses the loop's inside).
    const order = Order.HIGHEST_PRECEDENCE + 7;
    expect(build({ order }).order).toBe(order);
  });

  it.each(builders)('%s: an empty name is an InvalidOptionsError naming the option', (_, build) => {
    let error: unknown;
    try {
      build({ name: '' });
    } catch (caught) {
      error = caught;
    }
    expect(InvalidOptionsError.isInstance(error)).toBe(true);
    expect((error as InvalidOptionsError).message).toMatch(/name/);
  });
});
