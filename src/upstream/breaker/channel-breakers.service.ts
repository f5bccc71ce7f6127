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
/** A submit admitted to a channel; `trial`: the half-open channel's one trial. */
export interface Admission {
  trial: boolean;
}

@Injectable()
export class ChannelBreakers {
  private readonly logger = new Logger('ChannelBreaker');
  private readonly rules: BreakerRules;
  /** A trial that never reports (its instance died) frees the channel for another after this. */
  private readonly trialLeaseMs: number;
  /** Submits this instance has under way, per channel (admitted, not yet recorded). */
  private readonly sending = new Map<number, number>();

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
   * the one trial. While a streak of faults runs on a closed channel, no more submits are sent to it
   * at once (from this instance) than the faults still missing to open it: a further one is `defer`red,
   * tried after the other candidates (`deferred`: it comes back, and goes). Each admission's end is
   * recorded with `record`.
   */
  async admit(channelId: number, deferred = false): Promise<Admission | 'defer' | null> {
    const state = this.states.get(channelId);
    const phase = phaseOf(state, this.clock.now());
    if (phase === 'open') return null;
    if (phase === 'closed') {
      const sending = this.sending.get(channelId) ?? 0;
      if (!deferred && state.failures > 0 && state.failures + sending >= this.rules.failures) return 'defer';
      this.sending.set(channelId, sending + 1);
      return { trial: false };
    }
    const now = this.clock.now();
    const trial = await this.states.update(channelId, (current) => withTrial(current, now, this.trialLeaseMs));
    if (!trial) return null;
    this.logger.log(`channel ${channelId}: a submit tries it again (half-open)`);
    this.sending.set(channelId, (this.sending.get(channelId) ?? 0) + 1);
    return { trial: true };
  }

  /**
   * What one submit on the channel said of it (see breakerOutcomeOf), at the end of its `admission`
   * (none for a resubmit sent whatever the breaker says); a neutral end of the half-open trial frees
   * it for another submit. Best effort, never thrown.
   */
  async record(channelId: number, outcome: BreakerOutcome, admission: Admission | null): Promise<void> {
    if (admission) {
      const sending = (this.sending.get(channelId) ?? 1) - 1;
      if (sending > 0) this.sending.set(channelId, sending);
      else this.sending.delete(channelId);
    }
    const trial = admission?.trial ?? false;
    const now = this.clock.now();
    const before = this.states.get(channelId);
    if (outcome === 'accepted' ? sameState(before, CLOSED) : outcome === 'neutral' && !trial) return;
    const change =
      outcome === 'accepted'
        ? afterAcceptance
        : outcome === 'fault'
          ? (state: BreakerState) => afterFault(state, now, this.rules)
          : withoutTrial;
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
    } else if (before !== 'closed' && failures === 0)
      this.logger.log(`channel ${channelId}: breaker closed, the provider accepted a submit`);
  }
}
