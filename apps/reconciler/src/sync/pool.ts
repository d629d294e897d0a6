// Runs async tasks with at most `concurrency` at once; the first failure stops new starts and
// is rethrown once the running ones have settled (so no commit is cut off half way).

export async function runPool(
  tasks: readonly (() => Promise<void>)[],
  concurrency: number,
): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (!failure && next < tasks.length) {
      const task = tasks[next++];
      try {
        await task?.();
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(
    Array.from({ length: Math.max(1, Math.min(concurrency, tasks.length)) }, worker),
  );
  if (failure) throw failure.error;
}
