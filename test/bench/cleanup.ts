// A LIFO stack of undo steps for the whole bench run: everything the run starts or creates pushes
// its undo here right after it exists, and runAll() undoes in reverse order even when some steps
// fail (a failing step is reported, never allowed to skip the ones below it).
export type UndoStep = () => void | Promise<void>;

export class CleanupStack {
  private readonly steps: Array<{ label: string; undo: UndoStep }> = [];
  private running: Promise<string[]> | undefined;

  /** Registers an undo; returns a function that runs it early (and removes it from the stack). */
  push(label: string, undo: UndoStep): () => Promise<void> {
    const entry = { label, undo };
    this.steps.push(entry);
    return async () => {
      const index = this.steps.indexOf(entry);
      if (index < 0) return;
      this.steps.splice(index, 1);
      await entry.undo();
    };
  }

  /** Undoes everything, newest first; returns the messages of the steps that failed. Idempotent. */
  runAll(): Promise<string[]> {
    this.running ??= (async () => {
      const failures: string[] = [];
      while (this.steps.length > 0) {
        const { label, undo } = this.steps.pop()!;
        try {
          await undo();
        } catch (err) {
          failures.push(`${label}: ${err instanceof Error ? err.message : String(err)}`);
        }
      }
      return failures;
    })();
    return this.running;
  }
}
