import {
  EvaluationAdvisor,
  LoggerAdvisor,
  MessageChatMemoryAdvisor,
  Order,
  PromptChatMemoryAdvisor,
  RetryAdvisor,
  SafeGuardAdvisor,
  sortAdvisors,
  StructuredOutputValidationAdvisor,
  ToolCallingAdvisor,
  advisor,
} from '../../lib/index';

describe('Order', () => {
  it('names the default order of every built-in advisor', () => {
    expect(new SafeGuardAdvisor({ sensitiveWords: ['x'] }).order).toBe(Order.SAFE_GUARD);
    expect(new MessageChatMemoryAdvisor().order).toBe(Order.CHAT_MEMORY);
    expect(new PromptChatMemoryAdvisor().order).toBe(Order.CHAT_MEMORY);
    expect(new EvaluationAdvisor({ judge: () => ({ pass: true }) }).order).toBe(Order.EVALUATION);
    expect(new StructuredOutputValidationAdvisor({ outputSchema: { type: 'object' } }).order).toBe(
      Order.STRUCTURED_OUTPUT,
    );
    expect(new ToolCallingAdvisor().order).toBe(Order.TOOL_CALLING);
    expect(new LoggerAdvisor().order).toBe(Order.DEFAULT);
    expect(advisor({ name: 'a' }).order).toBe(Order.DEFAULT);
    expect(new RetryAdvisor().order).toBe(Order.RETRY);
  });

  it('keeps the documented offsets', () => {
    expect(Order.SAFE_GUARD - Order.HIGHEST_PRECEDENCE).toBe(100);
    expect(Order.CHAT_MEMORY - Order.HIGHEST_PRECEDENCE).toBe(200);
    expect(Order.EVALUATION - Order.HIGHEST_PRECEDENCE).toBe(240);
    expect(Order.STRUCTURED_OUTPUT - Order.HIGHEST_PRECEDENCE).toBe(250);
    expect(Order.TOOL_CALLING - Order.HIGHEST_PRECEDENCE).toBe(300);
    expect(Order.LOWEST_PRECEDENCE - Order.RETRY).toBe(1000);
  });

  it('sorts the built-in advisors from the guard outermost to the retry next to the model', () => {
    const names = sortAdvisors([
      new RetryAdvisor(),
      new LoggerAdvisor(),
      new ToolCallingAdvisor(),
      new StructuredOutputValidationAdvisor({ outputSchema: { type: 'object' } }),
      new EvaluationAdvisor({ judge: () => ({ pass: true }) }),
      new MessageChatMemoryAdvisor(),
      new SafeGuardAdvisor({ sensitiveWords: ['x'] }),
    ]).map((a) => a.name);
    expect(names).toEqual([
      'safe-guard',
      'MessageChatMemoryAdvisor',
      'evaluation',
      'structured-output-validation',
      'ToolCallingAdvisor',
      'logger',
      'retry',
    ]);
  });
});
