/**
 * An advisor that adds tools to the request at run time (for example one that picks tools
 * from a registry per message). A ChatClient call whose request has no tools still gets an
 * auto-registered `ToolCallingAdvisor` when one of its advisors says
 * `contributesTools: true`. Such an advisor must be ordered before the loop (a lower
 * order than `Order.TOOL_CALLING`): the loop only runs tools offered in the request it sees.
 *
 * @example
 * ```ts
 * import { Order, type Advisor, type ToolContributor } from 'rx-advisors';
 *
 * const addTools: Advisor & ToolContributor = {
 *   name: 'add-tools',
 *   order: Order.TOOL_CALLING - 1, // before the loop, so the loop sees the tools
 *   contributesTools: true,
 *   advise: (request, chain) => chain.next(request.withTools([...request.tools, getTime])),
 * };
 * ```
 */
export interface ToolContributor {
  readonly contributesTools?: boolean;
}
