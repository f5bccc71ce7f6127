/**
 * A gate a test closes to hold an emulator's calls of one kind (submits, DELETEs) unanswered: a
 * provider slow to answer. Open by default, so the simulator never waits on it.
 */
export class EmulatorGate {
  private closed: Promise<void> | null = null;

  /** Held calls wait from now on until the returned function is called. */
  hold(): () => void {
    let release!: () => void;
    this.closed = new Promise((resolve) => (release = resolve));
    return () => {
      this.closed = null;
      release();
    };
  }

  /** What a call waits on while the gate is held; null while it is open (then a call goes on at once). */
  get held(): Promise<void> | null {
    return this.closed;
  }
}
