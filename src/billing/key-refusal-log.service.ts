import { Injectable, OnModuleInit } from '@nestjs/common';
import { KeyRefusal, KeyRefusals } from '../auth/key-refusals';
import { Clock } from '../common/runtime/clock';
import { LedgerService } from './ledger.service';

/** One row per key and reason a minute is enough to see why a key is refused; a flood of refusals writes no more. */
const ONE_ROW_PER_MS = 60_000;
const MAX_TRACKED = 10_000;

/** Writes a key's refusals to the logs (type `refused`, no quota moved), where the console shows them with the reason. */
@Injectable()
export class KeyRefusalLog implements OnModuleInit {
  private readonly lastWritten = new Map<string, number>();

  constructor(
    private readonly refusals: KeyRefusals,
    private readonly ledger: LedgerService,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.refusals.subscribe((refusal) => this.record(refusal));
  }

  private async record(refusal: KeyRefusal): Promise<void> {
    const now = this.clock.now();
    const slot = `${refusal.apiKeyId}:${refusal.code}`;
    if (now - (this.lastWritten.get(slot) ?? -Infinity) < ONE_ROW_PER_MS) return;
    if (this.lastWritten.size >= MAX_TRACKED) this.lastWritten.clear();
    this.lastWritten.set(slot, now);
    await this.ledger.recordRefusal(refusal.userId, refusal.model ?? null, `${refusal.code}: ${refusal.message} (key ${refusal.apiKeyId})`);
  }
}
