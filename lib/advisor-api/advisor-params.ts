/**
 * Well-known advisor parameter keys. Advisor params land in the call's context
 * (`request.context`) under these keys.
 *
 * @example
 * ```ts
 * import { AdvisorParams } from 'rx-advisors';
 * client.prompt('Hi').advisorParams({ [AdvisorParams.CONVERSATION_ID]: 'c1' });
 * ```
 */
export const AdvisorParams = {
  /** The conversation the memory advisors read and write. */
  CONVERSATION_ID: 'conversationId',
  /** `false` stops the ChatClient from adding a `ToolCallingAdvisor` to a call with tools. */
  TOOL_CALLING_ADVISOR_AUTO_REGISTER: 'toolCallingAdvisorAutoRegister',
} as const;
