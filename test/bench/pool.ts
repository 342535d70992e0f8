// Runs `count` tasks with at most `inFlight` of them at once, as the kubelet's pod workers do
// (each worker takes the next index when its task ends), and settles every one of them.
export async function runPool<T>(
  count: number,
  inFlight: number,
  task: (index: number) => Promise<T>,
): Promise<Array<PromiseSettledResult<T>>> {
  const results = new Array<PromiseSettledResult<T>>(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      try {
        results[index] = { status: 'fulfilled', value: await task(index) };
      } catch (reason) {
        results[index] = { status: 'rejected', reason };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(inFlight, count) }, worker));
  return results;
}
