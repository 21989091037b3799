/**
 * An advisor that adds tools to the request at run time (for example one that picks tools
 * from a registry per message). A ChatClient call whose request has no tools still gets an
 * auto-registered `ToolCallingAdvisor` when one of its advisors says
 * `contributesTools: true`.
 *
 * @example
 * ```ts
 * import type { Advisor, ToolContributor } from 'rx-advisors';
 *
 * const addTools: Advisor & ToolContributor = {
 *   name: 'add-tools',
 *   order: 0,
 *   contributesTools: true,
 *   advise: (request, chain) => chain.next(request.withTools([...request.tools, getTime])),
 * };
 * ```
 */
export interface ToolContributor {
  readonly contributesTools?: boolean;
}
