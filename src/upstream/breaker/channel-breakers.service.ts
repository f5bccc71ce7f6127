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
  withoutTrial,
  withTrial,
} from './breaker-state';
import { BreakerStates } from './breaker-states.service';
import { ChannelBreakerView, toBreakerView } from './breaker-view';

/**
 * The breaker of every channel (breaker-state.ts), as routing and the submit use it: which channels
 * may be tried now (no I/O), whether this submit may try one (a half-open channel admits one trial at
 * a time), and what each answer says. Shared through Redis when REDIS_URL is set (BreakerStates).
 */
@Injectable()
export class ChannelBreakers {
  private readonly logger = new Logger('ChannelBreaker');
  private readonly rules: BreakerRules;
  /** A trial that never reports (its instance died) frees the channel for another after this. */
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
   * Whether this submit may go to the channel now: closed yes, open no, half-open if it gets the one
   * trial. Null: not now; else whether it is the trial (its end must be recorded, see `record`).
   */
  async admit(channelId: number): Promise<{ trial: boolean } | null> {
    const phase = this.phase(channelId);
    if (phase !== 'half_open') return phase === 'closed' ? { trial: false } : null;
    const now = this.clock.now();
    const trial = await this.states.update(channelId, (current) => withTrial(current, now, this.trialLeaseMs));
    if (!trial) return null;
    this.logger.log(`channel ${channelId}: a submit tries it again (half-open)`);
    return { trial: true };
  }

  /**
   * What one submit on the channel said of it (see breakerOutcomeOf); `trial` when it was the
   * half-open trial, which a neutral end frees for another submit. Best effort, never thrown.
   */
  async record(channelId: number, outcome: BreakerOutcome, trial = false): Promise<void> {
    const now = this.clock.now();
    const before = this.states.get(channelId);
    if (outcome === 'accepted' ? sameState(before, CLOSED) : outcome === 'neutral' && !trial) return;
    const change =
      outcome === 'accepted' ? afterAcceptance : outcome === 'fault' ? (state: BreakerState) => afterFault(state, now, this.rules) : withoutTrial;
    try {
      const after = await this.states.update(channelId, change);
      if (after) this.logChange(channelId, phaseOf(before, now), after.retryAt !== before.retryAt ? after.retryAt : null, after.failures);
    } catch (error) {
      this.logger.warn(`breaker of channel ${channelId} not updated: ${(error as Error)?.message ?? error}`);
    }
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
    } else if (before !== 'closed' && failures === 0) this.logger.log(`channel ${channelId}: breaker closed, the provider accepted a submit`);
  }
}
