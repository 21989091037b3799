import { InvalidOptionsError } from '../../lib/errors/invalid-options-error';
import {
  resolveToolCallingAdvisorOptions,
  TOOL_CALLING_ADVISOR_DEFAULTS,
} from '../../lib/tools/tool-calling-advisor-options';

describe('ToolCallingAdvisor options', () => {
  it('has a safe default for every limit', () => {
    expect(resolveToolCallingAdvisorOptions({})).toEqual(TOOL_CALLING_ADVISOR_DEFAULTS);
    expect(TOOL_CALLING_ADVISOR_DEFAULTS).toMatchObject({
      maxRounds: 20,
      concurrency: 8,
      toolTimeout: 300_000,
      maxToolCallsPerRound: 128,
    });
    expect(Object.isFrozen(TOOL_CALLING_ADVISOR_DEFAULTS)).toBe(true);
  });

  it('keeps a default for an option set to undefined', () => {
    expect(resolveToolCallingAdvisorOptions({ toolTimeout: undefined } as never).toolTimeout).toBe(
      300_000,
    );
  });

  it('accepts Infinity to turn the tool timeout off', () => {
    expect(resolveToolCallingAdvisorOptions({ toolTimeout: Infinity }).toolTimeout).toBe(Infinity);
  });

  it.each([
    ['toolTimeout', { toolTimeout: 0 }],
    ['maxToolCallsPerRound', { maxToolCallsPerRound: 0 }],
    ['maxRounds', { maxRounds: 1.5 }],
    ['concurrency', { concurrency: 0 }],
    ['onToolError', { onToolError: 'ignore' }],
    ['preamble', { preamble: 'hide' }],
    ['conversationHistory', { conversationHistory: 'no' }],
    ['toolCallLimits.search', { toolCallLimits: { search: -1 } }],
  ])('rejects a bad %s with an InvalidOptionsError naming it', (option, options) => {
    let error: unknown;
    try {
      resolveToolCallingAdvisorOptions(options as never);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InvalidOptionsError);
    expect(error).toMatchObject({ option });
  });
});
