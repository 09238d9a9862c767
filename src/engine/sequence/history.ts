/**
 * Undo and redo of the clip editor (Ctrl/Cmd+Z, Shift+Ctrl/Cmd+Z): a stack of whole states. A
 * sequence is small (at most 50 clips) and immutable, so a snapshot per edit is cheaper to get
 * right than inverse commands.
 */
export class History<T> {
  private readonly past: T[] = [];
  private readonly future: T[] = [];

  constructor(private readonly limit = 200) {}

  /** Records `before` as the state an undo returns to; a new edit drops what could be redone. */
  push(before: T): void {
    this.past.push(before);
    if (this.past.length > this.limit) this.past.shift();
    this.future.length = 0;
  }

  /** The state to go back to from `current`, or null when there is none. */
  undo(current: T): T | null {
    const prev = this.past.pop();
    if (prev === undefined) return null;
    this.future.push(current);
    return prev;
  }

  /** The state an undo left, or null. */
  redo(current: T): T | null {
    const next = this.future.pop();
    if (next === undefined) return null;
    this.past.push(current);
    return next;
  }

  get canUndo(): boolean {
    return this.past.length > 0;
  }

  get canRedo(): boolean {
    return this.future.length > 0;
  }
}

/** What the keyboard asks of the history: Ctrl/Cmd+Z undoes, with Shift (or Ctrl+Y) redoes. */
export function historyKey(e: {
  key: string;
  ctrlKey?: boolean;
  metaKey?: boolean;
  shiftKey?: boolean;
  altKey?: boolean;
}): 'undo' | 'redo' | null {
  if (!(e.ctrlKey || e.metaKey) || e.altKey) return null;
  const key = e.key.toLowerCase();
  if (key === 'z') return e.shiftKey ? 'redo' : 'undo';
  if (key === 'y' && !e.shiftKey) return 'redo';
  return null;
}
