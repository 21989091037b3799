/** A workload a framework cannot run yet (a piece it needs has not landed). */
export class NotMeasurableError extends Error {
  override readonly name = 'NotMeasurableError';
}
