import { Injectable, Logger } from '@nestjs/common';
import { AppError, ErrorCode } from '../common/errors/app-error';
import { JobContext } from '../jobs/job-context';
import { RegisteredJob } from '../jobs/registered-job';
import { DeliverySuccessBuffer } from './delivery-success-buffer';
import { EndpointSendSlots } from './endpoint-send-slots';
import type { ClaimedDelivery } from './webhook-delivery-rows';
import { successTouchesEndpoint, WebhookDeliveryRepository } from './webhook-delivery.repository';
import { WebhookEventPublisher } from './webhook-event-publisher';
import { WebhookMetrics } from './webhook-metrics.service';
import { DISABLE_AFTER_FAILING_MS, nextAttemptAt } from './webhook-retry-schedule';
import { WebhookSecretBox } from './webhook-secret-box';
import { DELIVERY_TIMEOUT_MS, SendResult, WebhookSender } from './webhook-sender';
import { WebhookWakeUp } from './webhook-wake-up';
import { inTaskSpan } from '../telemetry/tracing';

const BATCH_SIZE = 100;
/** Attempts in flight at once on this instance, across all endpoints. */
const GLOBAL_CONCURRENCY = 64;
/** Attempts in flight at once per endpoint on this instance, test events included: a hanging endpoint holds only these. */
export const PER_ENDPOINT_CONCURRENCY = 4;
/** A quick endpoint may have this many claimed attempts (in flight or queued here) per slot; a slow one none queued. */
const QUEUE_PER_SLOT = 8;
/** An endpoint whose attempt took this long (or timed out) counts as slow for SLOW_FOR_MS. */
const SLOW_ATTEMPT_MS = 2_000;
const SLOW_FOR_MS = 60_000;
/** A claimed attempt belongs to this instance this long: a full queue of a quick endpoint that turns slow still fits. */
const LEASE_MS = 120_000;
/** An attempt is only sent while its lease outlasts the send deadline by this margin; else it is handed back. */
const LEASE_MARGIN_MS = DELIVERY_TIMEOUT_MS + 5_000;
/** While attempts are in flight and nothing else is due, how often the round looks again. */
const BUSY_POLL_MS = 250;
/** Wake-ups (a task ended here) are coalesced: a claim at most this often, so claims never crowd the task sync's writes. */
const WAKE_GAP_MS = 100;
/** A slow endpoint with all its slots taken has its due backlog parked this long (its attempts wait anyway). */
const PARK_BACKLOG_MS = 30_000;
/** Decrypted endpoint secrets kept in memory at most (all dropped when full). */
const OPENED_SECRETS_KEPT = 1_000;

/**
 * Delivers webhook attempts, as a leased job of the {@link JobRunner} on any instance: claims due
 * attempts with a lease in the database, at most {@link PER_ENDPOINT_CONCURRENCY} per endpoint, and
 * sends each one (signed, SSRF-checked, 10 s deadline). A round keeps claiming while attempts are in
 * flight, so a hanging endpoint occupies only its own slots and never delays other endpoints; it is
 * a job of its own, so it never delays the task sync either. At least once: an attempt is marked
 * only after its answer, and a crashed instance's attempts are due again when their lease runs out.
 */
@Injectable()
export class WebhookDeliveryService extends RegisteredJob<ClaimedDelivery> {
  private readonly logger = new Logger('WebhookDelivery');
  /** Claimed and not yet settled attempts per endpoint (webhook_endpoints.id) on this instance. */
  private readonly inFlight = new Map<number, number>();
  private inFlightTotal = 0;
  /** Endpoints that answered slowly of late (webhook_endpoints.id -> until when). */
  private readonly slowUntil = new Map<number, number>();
  private wakeTimer: NodeJS.Timeout | null = null;
  /** When each slow endpoint's backlog was last parked. */
  private readonly parkedAt = new Map<number, number>();
  /** When a success last wrote each endpoint's row here (webhook_endpoints.id -> epoch ms). */
  private readonly endpointWrittenAt = new Map<number, number>();
  /** Endpoints the last claim left due attempts of (their room was full): a claim is due again when their queue half empties. */
  private backlogged = new Set<number>();
  /** Endpoints' secrets by their sealed form, decrypted. */
  private readonly openedSecrets = new Map<string, string>();
  /** Successes of the rounds' attempts, written in batches. */
  private readonly successes: DeliverySuccessBuffer;
  /** Attempts being sent per endpoint here: the rounds' and the test events'. */
  private readonly slots = new EndpointSendSlots(PER_ENDPOINT_CONCURRENCY);
  private nap: { timer: NodeJS.Timeout; resolve: () => void } | null = null;

  constructor(
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly secrets: WebhookSecretBox,
    private readonly sender: WebhookSender,
    private readonly metrics: WebhookMetrics,
    private readonly publisher: WebhookEventPublisher,
    wakeUp: WebhookWakeUp,
    context: JobContext,
  ) {
    super(context, {
      name: 'webhook-delivery',
      batchSize: BATCH_SIZE,
      maxItemsPerRound: Number.MAX_SAFE_INTEGER,
      concurrency: GLOBAL_CONCURRENCY,
    });
    this.successes = new DeliverySuccessBuffer(deliveries);
    wakeUp.listen(() => this.wake());
  }

  get intervalMs(): number {
    return this.config.webhookDeliveryIntervalMs;
  }

  /** One round by hand (tests): publishes the task ends due, then sends every attempt due now (and those coming due while others are in flight). Returns how many were claimed. */
  async deliverDueWebhooks(): Promise<number> {
    await this.publisher.publishDueEvents();
    return this.loop.runRound();
  }

  async claim(limit: number): Promise<ClaimedDelivery[]> {
    for (;;) {
      const claimed = await this.claimOnce(limit);
      if (claimed.length > 0 || this.inFlightTotal === 0 || this.loop.stopped) return claimed;
      await this.sleep(BUSY_POLL_MS);
    }
  }

  keepClaiming(): boolean {
    return this.inFlightTotal > 0 && !this.loop.stopped;
  }

  keyOf(delivery: ClaimedDelivery): number {
    return delivery.endpointId;
  }

  limitFor(): number {
    return PER_ENDPOINT_CONCURRENCY;
  }

  handle(delivery: ClaimedDelivery): Promise<string> {
    return inTaskSpan('webhook.deliver', delivery.taskId, () => this.deliver(delivery));
  }

  private async deliver(delivery: ClaimedDelivery): Promise<string> {
    try {
      // The round keeps to the endpoint's limit itself; a test event being sent may hold a slot too.
      await this.slots.take(delivery.endpointId);
      try {
        return await this.sendClaimed(delivery);
      } finally {
        this.slots.give(delivery.endpointId);
      }
    } finally {
      this.settled(delivery);
    }
  }

  private async sendClaimed(delivery: ClaimedDelivery): Promise<string> {
    if (this.clock.now() > delivery.leaseUntil - LEASE_MARGIN_MS) {
      // Waited too long behind a slow endpoint: sending now could outlive the lease (and be sent twice).
      await this.deliveries.release(delivery, this.clock.now());
      return 'handed_back';
    }
    if (delivery.endpointStatus !== 'enabled') {
      await this.deliveries.cancel(delivery);
      this.metrics.deliveries.inc({ outcome: 'cancelled' });
      return 'cancelled';
    }
    // A test event is sent once (one a crashed instance left is sent by whoever takes it over, still once).
    return (await this.attempt(delivery, delivery.type !== 'webhook.test', true)).outcome;
  }

  /**
   * Sends a one-off attempt (a test event) now, in a slot of its endpoint, and never retries it:
   * `enqueue` writes it leased to this instance, so no round takes it over. With all the endpoint's
   * slots taken here nothing is written: a 429 whose Retry-After is when a slot is likely free.
   */
  async sendOnce(endpointId: number, enqueue: (owner: string, leaseUntil: number) => Promise<ClaimedDelivery>): Promise<ClaimedDelivery> {
    if (!this.slots.tryTake(endpointId)) {
      const retryAfterSeconds = (this.slowUntil.get(endpointId) ?? 0) > this.clock.now() ? DELIVERY_TIMEOUT_MS / 1000 : 1;
      throw new AppError(
        ErrorCode.RateLimited,
        `the endpoint has ${PER_ENDPOINT_CONCURRENCY} deliveries in flight: try again in ${retryAfterSeconds} s`,
        { retryAfterSeconds },
      );
    }
    try {
      const delivery = await enqueue(this.newOwner(), this.clock.now() + LEASE_MS);
      await this.attempt(delivery, false);
      return delivery;
    } finally {
      this.slots.give(endpointId);
    }
  }

  async handBack(delivery: ClaimedDelivery): Promise<void> {
    try {
      await this.deliveries.release(delivery, this.clock.now());
    } finally {
      this.settled(delivery);
    }
  }

  /** A round's successes are all written when it ends (a test's round sees them in the database). */
  closeRound(): Promise<void> {
    return this.successes.flush();
  }

  describe(delivery: ClaimedDelivery): string {
    return `delivery ${delivery.deliveryId} of ${delivery.eventId} to ${delivery.publicEndpointId}`;
  }

  oldestDueAt(now: number): Promise<number | null> {
    return this.deliveries.oldestDueAt(now);
  }

  /**
   * Sends one attempt and records what came of it: success; or failure, with the next attempt
   * queued when `retries` (and the schedule has one), or the endpoint disabled after 3 days of failing.
   * With `batched`, a success that leaves its endpoint as it is gets written with the next batch.
   */
  private async attempt(delivery: ClaimedDelivery, retries: boolean, batched = false): Promise<SendResult> {
    const started = this.clock.now();
    const result = await this.sender.send(
      delivery.url,
      this.openSecret(delivery.secretEncrypted),
      delivery.eventId,
      delivery.payload,
      started,
    );
    this.metrics.deliveries.inc({ outcome: result.outcome });
    const now = this.clock.now();
    if (now - started >= SLOW_ATTEMPT_MS || result.outcome === 'timeout') this.slowUntil.set(delivery.endpointId, now + SLOW_FOR_MS);
    if (result.outcome === 'delivered') {
      if (batched && !this.touchesEndpoint(delivery, now))
        this.successes.add({ id: delivery.id, leaseOwner: delivery.leaseOwner, statusCode: result.statusCode!, at: now });
      else await this.deliveries.recordSuccess(delivery, result.statusCode!, now);
      return result;
    }
    const next = retries ? nextAttemptAt(delivery.attempt, now) : null;
    const outcome = await this.deliveries.recordFailure(delivery, result, now, next, DISABLE_AFTER_FAILING_MS);
    if (outcome === 'endpoint_disabled')
      this.logger.warn(`webhook endpoint ${delivery.publicEndpointId} disabled: its deliveries have failed for 3 days`);
    return result;
  }

  /**
   * Whether a success writes its endpoint's row (ends its failure streak, refreshes its last
   * success): as the claim saw the endpoint, unless a success here wrote the row since that claim
   * (the claims of one batch all saw the same, now stale, row).
   */
  private touchesEndpoint(delivery: ClaimedDelivery, now: number): boolean {
    if (!successTouchesEndpoint(delivery, now)) return false;
    const written = this.endpointWrittenAt.get(delivery.endpointId) ?? 0;
    if (written >= delivery.leaseUntil - LEASE_MS && written > now - 60_000) return false;
    this.endpointWrittenAt.set(delivery.endpointId, now);
    return true;
  }

  /** An endpoint's secret, decrypted once per sealed form (an endpoint gets many events in a row). */
  private openSecret(sealed: string): string {
    let secret = this.openedSecrets.get(sealed);
    if (secret === undefined) {
      if (this.openedSecrets.size >= OPENED_SECRETS_KEPT) this.openedSecrets.clear();
      secret = this.secrets.open(sealed);
      this.openedSecrets.set(sealed, secret);
    }
    return secret;
  }

  /** A lease owner token per claim (like the task sync), so a late write from an older claim cannot win. */
  private newOwner(): string {
    return this.claimOwner('w');
  }

  private async claimOnce(limit: number): Promise<ClaimedDelivery[]> {
    const now = this.clock.now();
    const room = (endpointId: number) => this.capacityOf(endpointId, now) - (this.inFlight.get(endpointId) ?? 0);
    const full = [...this.inFlight.keys()].filter((endpointId) => room(endpointId) <= 0);
    for (const endpointId of full) await this.parkBacklogIfSlow(endpointId, now);
    const roomBefore = new Map<number, number>();
    const claimed = await this.deliveries.claimDue(this.newOwner(), now, now + LEASE_MS, limit, full, (endpointId) => {
      if (!roomBefore.has(endpointId)) roomBefore.set(endpointId, room(endpointId));
      return roomBefore.get(endpointId)!;
    });
    const taken = new Map<number, number>();
    for (const delivery of claimed) {
      this.inFlight.set(delivery.endpointId, (this.inFlight.get(delivery.endpointId) ?? 0) + 1);
      taken.set(delivery.endpointId, (taken.get(delivery.endpointId) ?? 0) + 1);
      this.inFlightTotal++;
    }
    // An endpoint that was full, or whose room this claim filled, likely has more due: claim again once half its queue is done.
    this.backlogged = new Set([
      ...full,
      ...[...taken].filter(([endpointId, count]) => count >= (roomBefore.get(endpointId) ?? Infinity)).map(([endpointId]) => endpointId),
    ]);
    return claimed;
  }

  /** A slow endpoint that holds all its slots: its other due attempts wait PARK_BACKLOG_MS, out of every claim's way. */
  private async parkBacklogIfSlow(endpointId: number, now: number): Promise<void> {
    if ((this.slowUntil.get(endpointId) ?? 0) <= now || (this.parkedAt.get(endpointId) ?? 0) > now - PARK_BACKLOG_MS / 2) return;
    this.parkedAt.set(endpointId, now);
    await this.deliveries.deferBacklog(endpointId, now, now + PARK_BACKLOG_MS);
  }

  /** Attempts an endpoint may have claimed here: a queue for a quick one, only its slots for a slow one. */
  private capacityOf(endpointId: number, now: number): number {
    const slow = (this.slowUntil.get(endpointId) ?? 0) > now;
    if (!slow) this.slowUntil.delete(endpointId);
    return slow ? PER_ENDPOINT_CONCURRENCY : PER_ENDPOINT_CONCURRENCY * QUEUE_PER_SLOT;
  }

  private settled(delivery: ClaimedDelivery): void {
    const left = (this.inFlight.get(delivery.endpointId) ?? 1) - 1;
    if (left > 0) this.inFlight.set(delivery.endpointId, left);
    else this.inFlight.delete(delivery.endpointId);
    this.inFlightTotal--;
    if (
      this.nap &&
      this.backlogged.has(delivery.endpointId) &&
      left === Math.floor(this.capacityOf(delivery.endpointId, this.clock.now()) / 2)
    )
      this.wakeSleeper();
  }

  /** A task's end committed here: look soon (the round in progress, or a new one when the schedule runs). */
  private wake(): void {
    if (this.wakeTimer) return;
    this.wakeTimer = setTimeout(() => {
      this.wakeTimer = null;
      if (this.nap) this.wakeSleeper();
      else if (this.intervalMs > 0) void this.loop.tick();
    }, WAKE_GAP_MS);
    this.wakeTimer.unref();
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      this.nap = { timer: setTimeout(() => this.wakeSleeper(), ms), resolve };
    });
  }

  private wakeSleeper(): void {
    const nap = this.nap;
    if (!nap) return;
    this.nap = null;
    clearTimeout(nap.timer);
    nap.resolve();
  }
}
