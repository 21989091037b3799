/** Whether a process (a pid) or a process group (a negative pid) still exists. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Waits until the process (or group) is gone, polling every `everyMs`, at most `tries` times.
 * @returns `true` once it is gone; `false` when it is still there after the last try.
 */
export async function gone(pid: number, tries = 100, everyMs = 100): Promise<boolean> {
  for (let i = 0; i < tries && alive(pid); i++) {
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  return !alive(pid);
}
