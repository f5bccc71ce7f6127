import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AppError } from '../common/errors/app-error';
import { ReadThroughCache, SHARED_ROWS_TTL_MS } from '../common/runtime/read-through-cache';
import type { GroupRatioEntity } from './group-ratio.entity';
import { basePrice, priceInGroup, type PriceRow, ruleFor } from './price-of';
import type { PriceBasis } from './settlement';
import { PriceRepository } from './price.repository';
import type { PriceRuleEntity } from './price-rule.entity';

/**
 * The largest price (quota units per second or per clip) an operator may set: the dearest quote,
 * 15 s with audio (x2) and fast motion (x2) at the highest group ratio (x100), stays an exact integer.
 */
export const MAX_PRICE = 1_000_000_000_000;

export interface QuoteRequest {
  model: string;
  /** Lower-case quality, e.g. `720p`. */
  resolution: string;
  seconds: number;
  audio?: boolean;
  fastMotion?: boolean;
  group: string;
}

export interface Quote {
  quota: number;
  /** How the figure was reached, for the consume log. */
  detail: string;
  /** What the task keeps to settle on what was delivered: these rates, this ratio, this ask (a retry's: the task's own, null on old tasks). */
  basis: PriceBasis | null;
}

/**
 * Prices a task from the price table and the group's ratio. Both are read once per
 * SHARED_ROWS_TTL_MS, not on every submit, and cleared here when they change.
 */
@Injectable()
export class PricingService {
  private readonly cachedRules = new ReadThroughCache<PriceRuleEntity[]>(SHARED_ROWS_TTL_MS);
  private readonly cachedRatios = new ReadThroughCache<number>(SHARED_ROWS_TTL_MS);

  /** Told the model whose price the Prices page wrote (the catalog marks a builtin entry changed by the operator). */
  private readonly priceWriteListeners: Array<(model: string) => Promise<void>> = [];

  constructor(private readonly prices: PriceRepository) {}

  onPriceWritten(listener: (model: string) => Promise<void>): void {
    this.priceWriteListeners.push(listener);
  }

  async quote(request: QuoteRequest): Promise<Quote> {
    const candidates = await this.cachedRules.get(request.model, () => this.prices.rulesOf(request.model));
    const rule = ruleFor(candidates, request);
    if (!rule) throw AppError.invalid(`no price for model ${request.model} at ${request.resolution}`, 'model');
    const base = basePrice(rule, request);
    const ratio = await this.groupRatio(request.group);
    const quota = priceInGroup(base, ratio);
    const asked = { resolution: request.resolution, seconds: request.seconds, audio: !!request.audio, fastMotion: !!request.fastMotion };
    const basis: PriceBasis = { rules: candidates.map(priceRow), ratio, asked };
    const tier = [request.audio ? 'audio' : null, request.fastMotion ? 'fast motion' : null].filter(Boolean).join(', ');
    return {
      quota,
      basis,
      detail: `${request.model} ${request.resolution} ${request.seconds}s${tier ? ` (${tier})` : ''}: ${base} x group ${request.group} ratio ${ratio}`,
    };
  }

  groupRatio(group: string): Promise<number> {
    return this.cachedRatios.get(group, async () => (await this.prices.ratioOf(group)) ?? 1);
  }

  listRules(): Promise<PriceRuleEntity[]> {
    return this.prices.listRules();
  }

  /** Inside the caller's transaction (the catalog writing an entry): `model`'s prices become exactly `rules`. */
  replacePrices(manager: EntityManager, model: string, rules: Array<Omit<PriceRuleEntity, 'id' | 'model'>>): Promise<void> {
    return this.prices.replaceRulesOf(manager, model, rules);
  }

  deletePricesOf(manager: EntityManager, models: string[]): Promise<void> {
    return this.prices.deleteRulesOf(manager, models);
  }

  /** After the catalog's transaction committed prices. */
  forgetPrices(): void {
    this.cachedRules.clear();
  }

  listRatios(): Promise<GroupRatioEntity[]> {
    return this.prices.listRatios();
  }

  async upsertRule(input: Omit<PriceRuleEntity, 'id'>): Promise<PriceRuleEntity> {
    const saved = await this.prices.upsertRule(input);
    this.cachedRules.clear();
    for (const listener of this.priceWriteListeners) await listener(input.model);
    return saved;
  }

  async deleteRule(id: number): Promise<void> {
    const rule = await this.prices.ruleById(id);
    const deleted = await this.prices.deleteRule(id);
    this.cachedRules.clear();
    if (!deleted) throw AppError.notFound(`price rule ${id} not found`);
    if (rule) for (const listener of this.priceWriteListeners) await listener(rule.model);
  }

  async setRatio(group: string, ratio: number): Promise<GroupRatioEntity> {
    const saved = await this.prices.setRatio(group, ratio);
    this.cachedRatios.clear();
    return saved;
  }
}

/** The columns of a rule a task keeps in its price basis. */
function priceRow({ resolution, unit, duration, price, audioPrice }: PriceRuleEntity): PriceRow {
  return { resolution, unit, duration, price, audioPrice };
}
