import { EmulatorGate } from '../../simulator-shared/emulator-gate';

/** An error a test queued for the next call of one action. */
export interface GammaScriptedError {
  status: number;
  code: string;
  message: string;
}

/**
 * What tests make the emulator do beyond the provider's usual answers (the simulator never sets any):
 * the next call of an action fails, submits wait, results come unwrapped, a session hands out another H5 link.
 */
export class GammaTestScripts {
  /** Control actions answered with their result fields at the top level (no `Result` wrapper), as the protocol allows. */
  readonly unwrapped = new Set<string>();
  /** When set, the H5Link CreateVisualValidateSession hands out (e.g. a `file://` link); null: the emulator's own page. */
  h5LinkFor: ((token: string) => string) | null = null;
  private readonly failures = new Map<string, GammaScriptedError>();
  private readonly submits = new EmulatorGate();

  /** The next call of `action` (a control action, or `submit` / `query` / `cancel`) answers with this error. */
  failNext(action: string, error: GammaScriptedError): void {
    this.failures.set(action, error);
  }

  /** The error queued for `action`, used up. */
  take(action: string): GammaScriptedError | undefined {
    const error = this.failures.get(action);
    this.failures.delete(action);
    return error;
  }

  /** Submits wait (unanswered) until the returned function is called: a provider slow to accept. */
  holdSubmits(): () => void {
    return this.submits.hold();
  }

  /** Resolves once submits may be answered. */
  async submitsReleased(): Promise<void> {
    const held = this.submits.held;
    if (held) await held;
  }
}
