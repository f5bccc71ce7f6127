import { Inject, Injectable, Logger } from '@nestjs/common';
import { Clock } from '../../common/runtime/clock';
import { APP_CONFIG, AppConfig, MAX_BREAKER_COOLDOWN_MS } from '../../config/app-config';
import { BreakerOutcome } from './breaker-outcome';
import {
  afterAcceptance,
  afterFault,
  BreakerPhase,
  BreakerRules,
  BreakerState,
  CLOSED,
  phaseOf,
  sameState,
  withoutSending,
  withoutTrial,
  withSending,
  withTrial,
} from './breaker-state';
import { BreakerStates } from './breaker-states.service';
import { ChannelBreakerView, toBreakerView } from './breaker-view';

/**
 * The breaker of every channel (breaker-state.ts), as routing and the submit use it: which channels
 * may be tried now (no I/O), whether this submit may try one (a half-open channel admits one trial at
 * a time), and what each answer says. Shared through Redis when REDIS_URL is set (BreakerStates).
 */
/** A submit admitted to a channel; `trial`: the half-open channel's one trial; `counted`: one of the submits a streak allows at once. */
export interface Admission {
  trial: boolean;
  counted: boolean;
}

@Injectable()
export class ChannelBreakers {
  private readonly logger = new Logger('ChannelBreaker');
  private readonly rules: BreakerRules;
  /** A trial (or a submit during a streak) that never reports, its instance dead, is forgotten after this. */
  private readonly trialLeaseMs: number;

  constructor(
    private readonly states: BreakerStates,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.rules = {
      failures: config.channelBreakerFailures,
      cooldownMs: config.channelBreakerCooldownMs,
      maxCooldownMs: MAX_BREAKER_COOLDOWN_MS,
    };
    this.trialLeaseMs = config.taskLeaseMs;
  }

  phase(channelId: number): BreakerPhase {
    return phaseOf(this.states.get(channelId), this.clock.now());
  }

  /** When an open breaker lets a submit try the channel again (ms epoch); null when it is not open. */
  openUntil(channelId: number): number | null {
    const state = this.states.get(channelId);
    return phaseOf(state, this.clock.now()) === 'open' ? state.retryAt : null;
  }

  /**
   * Whether this submit may go to the channel now: closed yes, open no (null), half-open if it gets
   * the one trial. While a streak of faults runs on a closed channel, no more submits go to it at once
   * (from every instance) than the faults still missing to open it: a further one is `defer`red, tried
   * after the other candidates (`deferred`: it comes back, and goes). Each admission's end is recorded with `record`.
   */
  async admit(channelId: number, deferred = false): Promise<Admission | 'defer' | null> {
    const state = this.states.get(channelId);
    const now = this.clock.now();
    const phase = phaseOf(state, now);
    if (phase === 'open') return null;
    if (phase === 'half_open') return this.admitTrial(channelId, now);
    // No streak running (the usual case): nothing to ask of anyone.
    if (state.failures === 0 || deferred) return { trial: false, counted: false };
    // What the breaker, as it is everywhere, says: the change below runs again on every lost race.
    const seen: { found: 'counted' | 'free' | 'full' | 'not_closed' } = { found: 'free' };
    const written = await this.states.update(channelId, (current) => {
      if (phaseOf(current, now) !== 'closed') return ((seen.found = 'not_closed'), null);
      if (current.failures === 0) return ((seen.found = 'free'), current);
      const next = withSending(current, now, this.trialLeaseMs, this.rules);
      seen.found = next ? 'counted' : 'full';
      return next;
    });
    if (seen.found === 'counted' && written) return { trial: false, counted: true };
    if (seen.found === 'free') return { trial: false, counted: false };
    return seen.found === 'not_closed' ? null : 'defer';
  }

  /**
   * What one submit on the channel said of it (see breakerOutcomeOf), at the end of its `admission`
   * (none for a resubmit sent whatever the breaker says); a neutral end of the half-open trial frees
   * it for another submit. Best effort, never thrown.
   */
  async record(channelId: number, outcome: BreakerOutcome, admission: Admission | null): Promise<void> {
    const { trial = false, counted = false } = admission ?? {};
    const now = this.clock.now();
    const before = this.states.get(channelId);
    if (outcome === 'accepted' ? sameState(before, CLOSED) : outcome === 'neutral' && !trial && !counted) return;
    const answered = (state: BreakerState) => (counted ? withoutSending(state) : state);
    const change =
      outcome === 'accepted'
        ? afterAcceptance
        : outcome === 'fault'
          ? (state: BreakerState) => afterFault(answered(state), now, this.rules)
          : (state: BreakerState) => answered(trial ? withoutTrial(state) : state);
    try {
      const after = await this.states.update(channelId, change);
      if (after) this.logChange(channelId, phaseOf(before, now), after.retryAt !== before.retryAt ? after.retryAt : null, after.failures);
    } catch (error) {
      this.logger.warn(`breaker of channel ${channelId} not updated: ${(error as Error)?.message ?? error}`);
    }
  }

  private async admitTrial(channelId: number, now: number): Promise<Admission | null> {
    const trial = await this.states.update(channelId, (current) => withTrial(current, now, this.trialLeaseMs));
    if (!trial) return null;
    this.logger.log(`channel ${channelId}: a submit tries it again (half-open)`);
    return { trial: true, counted: false };
  }

  /** Closed by hand (the admin API): the channel gets submits again at once. */
  async close(channelId: number): Promise<void> {
    await this.states.update(channelId, afterAcceptance);
    this.logger.log(`channel ${channelId}: breaker closed by hand`);
  }

  view(channelId: number): ChannelBreakerView {
    return toBreakerView(this.states.get(channelId), this.clock.now());
  }

  /** Every channel whose breaker is not closed now, with its view. */
  notClosed(): Array<{ channelId: number; breaker: ChannelBreakerView }> {
    const now = this.clock.now();
    return this.states
      .known()
      .map(([channelId, state]) => ({ channelId, breaker: toBreakerView(state, now) }))
      .filter(({ breaker }) => breaker.state !== 'closed');
  }

  private logChange(channelId: number, before: BreakerPhase, reopenedUntil: number | null, failures: number): void {
    if (reopenedUntil !== null) {
      const seconds = Math.round((reopenedUntil - this.clock.now()) / 1000);
      this.logger.warn(`channel ${channelId}: breaker open for ${seconds} s after ${failures} provider faults in a row`);
    } else if (before !== 'closed' && failures === 0)
      this.logger.log(`channel ${channelId}: breaker closed, the provider accepted a submit`);
  }
}
