import { PREFERENCES_SYNC } from '../../contract';

export interface PreferencesSyncOptions {
  debounceMs: number;
  retries: number;
  backoffBaseMs: number;
  backoffMaxMs: number;
  followUpMs: number;
}

/** Wait before retry number `attempt` (1-based): 1 s, 2 s, 4 s ... capped at the maximum. */
export const backoffMs = (attempt: number, o: Pick<PreferencesSyncOptions, 'backoffBaseMs' | 'backoffMaxMs'> = PREFERENCES_SYNC) =>
  Math.min(o.backoffBaseMs * 2 ** (attempt - 1), o.backoffMaxMs);

/**
 * Sends the preferences to the account (libraries spec section 7): 300 ms after the last change;
 * a failed send is retried 3 times (1 s, 2 s, 4 s, capped at 5 s); a change made while a send is
 * running triggers another send 100 ms after it ends. Always sends the latest values, so bursts
 * of changes cost one call.
 */
export class PreferencesSync<T> {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private dirty = false;
  private running = false;
  private failures = 0;
  private disposed = false;

  constructor(
    private readonly send: (value: T) => Promise<unknown>,
    private readonly read: () => T,
    private readonly onGiveUp: (error: unknown) => void = () => undefined,
    private readonly options: PreferencesSyncOptions = PREFERENCES_SYNC,
  ) {}

  /** Records a change; the send happens later (see the class comment). */
  changed() {
    if (this.disposed) return;
    this.dirty = true;
    this.failures = 0;
    // A running send is followed up when it ends; starting another now could land out of order.
    if (!this.running) this.schedule(this.options.debounceMs);
  }

  /** Whether a send is waiting or running (tests and sign-out use it). */
  get busy() {
    return this.dirty || this.running;
  }

  /** Sends a waiting change now (the page is being left and the debounce would lose it). */
  flushNow() {
    if (!this.dirty || this.running || this.disposed) return;
    clearTimeout(this.timer);
    void this.flush();
  }

  dispose() {
    this.disposed = true;
    clearTimeout(this.timer);
  }

  private schedule(ms: number) {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.flush(), ms);
  }

  private async flush() {
    this.timer = undefined;
    if (!this.dirty || this.running || this.disposed) return;
    this.dirty = false;
    this.running = true;
    let failed: unknown = null;
    try {
      await this.send(this.read());
      this.failures = 0;
    } catch (error) {
      failed = error ?? new Error('Preferences sync failed');
    } finally {
      this.running = false;
    }
    if (this.disposed) return;
    if (failed !== null) {
      this.failures++;
      this.dirty = true;
      if (this.failures <= this.options.retries) {
        this.schedule(backoffMs(this.failures, this.options));
      } else {
        // Given up: the values stay local until the next change tries again.
        this.failures = 0;
        this.dirty = false;
        this.onGiveUp(failed);
      }
      return;
    }
    if (this.dirty) this.schedule(this.options.followUpMs);
  }
}
