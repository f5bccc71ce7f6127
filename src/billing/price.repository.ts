import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, Repository } from 'typeorm';
import { TransactionRunner } from '../database/transaction-runner';
import { GroupRatioEntity } from './group-ratio.entity';
import { PriceRuleEntity } from './price-rule.entity';

/** The price table (`price_rules`) and the groups' ratios (`group_ratios`), which only BillingModule reads and writes. */
@Injectable()
export class PriceRepository {
  constructor(
    @InjectRepository(PriceRuleEntity) private readonly rules: Repository<PriceRuleEntity>,
    @InjectRepository(GroupRatioEntity) private readonly ratios: Repository<GroupRatioEntity>,
    private readonly transactions: TransactionRunner,
  ) {}

  rulesOf(model: string): Promise<PriceRuleEntity[]> {
    return this.rules.find({ where: { model } });
  }

  /** Inside the caller's transaction: `model`'s rules become exactly `rules`. */
  async replaceRulesOf(manager: EntityManager, model: string, rules: Array<Omit<PriceRuleEntity, 'id' | 'model'>>): Promise<void> {
    await manager.delete(PriceRuleEntity, { model });
    if (rules.length > 0)
      await manager.insert(
        PriceRuleEntity,
        rules.map((rule) => ({ ...rule, model })),
      );
  }

  /** Inside the caller's transaction: the rules of `models` (a deleted model's rules go with it). */
  async deleteRulesOf(manager: EntityManager, models: string[]): Promise<void> {
    if (models.length > 0) await manager.delete(PriceRuleEntity, { model: In(models) });
  }

  listRules(): Promise<PriceRuleEntity[]> {
    return this.rules.find({ order: { model: 'ASC', resolution: 'ASC', duration: 'ASC' } });
  }

  /** Writes the rule of its (model, resolution, duration): a new one, or over the existing one. */
  upsertRule(input: Omit<PriceRuleEntity, 'id'>): Promise<PriceRuleEntity> {
    return this.transactions.run(async (manager) => {
      const existing = await manager.findOne(PriceRuleEntity, {
        where: { model: input.model, resolution: input.resolution, duration: input.duration },
      });
      return manager.save(PriceRuleEntity, { ...existing, ...input });
    });
  }

  /** False when there was no such rule. */
  ruleById(id: number): Promise<PriceRuleEntity | null> {
    return this.rules.findOne({ where: { id } });
  }

  async deleteRule(id: number): Promise<boolean> {
    const result = await this.transactions.run((manager) => manager.delete(PriceRuleEntity, { id }));
    return !!result.affected;
  }

  /** The group's ratio, or null when it has none of its own. */
  async ratioOf(group: string): Promise<number | null> {
    return (await this.ratios.findOne({ where: { group } }))?.ratio ?? null;
  }

  listRatios(): Promise<GroupRatioEntity[]> {
    return this.ratios.find({ order: { group: 'ASC' } });
  }

  setRatio(group: string, ratio: number): Promise<GroupRatioEntity> {
    return this.transactions.run((manager) => manager.save(GroupRatioEntity, { group, ratio }));
  }
}
