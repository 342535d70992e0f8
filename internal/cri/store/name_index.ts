// Name reservation, like containerd's internal/registrar: a name belongs to one key at a time.
// Reserving the same name for the same key again is fine (idempotent retries); another key fails.
import { alreadyExists } from '../../errdefs/errors';

export class NameIndex {
  private readonly byName = new Map<string, string>();
  private readonly byKey = new Map<string, string>();

  reserve(name: string, key: string): void {
    const owner = this.byName.get(name);
    if (owner !== undefined && owner !== key) {
      throw alreadyExists(`name "${name}" is reserved for "${owner}"`);
    }
    const previous = this.byKey.get(key);
    if (previous !== undefined && previous !== name) {
      throw alreadyExists(`key "${key}" already reserved name "${previous}"`);
    }
    this.byName.set(name, key);
    this.byKey.set(key, name);
  }

  releaseByName(name: string): void {
    const key = this.byName.get(name);
    if (key === undefined) return;
    this.byName.delete(name);
    this.byKey.delete(key);
  }

  releaseByKey(key: string): void {
    const name = this.byKey.get(key);
    if (name === undefined) return;
    this.byKey.delete(key);
    this.byName.delete(name);
  }

  get(name: string): string | undefined {
    return this.byName.get(name);
  }

  get size(): number {
    return this.byName.size;
  }
}
