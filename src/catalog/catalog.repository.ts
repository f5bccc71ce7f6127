import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, Repository } from 'typeorm';
import { TransactionRunner } from '../database/transaction-runner';
import { CatalogModelEntity } from './catalog-model.entity';

/** The `catalog_models` table, which only CatalogModule reads and writes. */
@Injectable()
export class CatalogRepository {
  constructor(
    @InjectRepository(CatalogModelEntity) private readonly models: Repository<CatalogModelEntity>,
    private readonly transactions: TransactionRunner,
  ) {}

  all(): Promise<CatalogModelEntity[]> {
    return this.models.find({ order: { id: 'ASC' } });
  }

  find(id: string): Promise<CatalogModelEntity | null> {
    return this.models.findOne({ where: { id } });
  }

  /** Inside the caller's transaction: writes the whole row (new or over the existing one). */
  save(manager: EntityManager, row: CatalogModelEntity): Promise<CatalogModelEntity> {
    return manager.save(CatalogModelEntity, row);
  }

  /** Inside the caller's transaction; false when there was no such row. */
  async delete(manager: EntityManager, id: string): Promise<boolean> {
    return !!(await manager.delete(CatalogModelEntity, { id })).affected;
  }

  /** Marks a builtin or feed entry changed by the operator (a price written on the Prices page). */
  async markModified(id: string, now: number): Promise<void> {
    await this.transactions.runStatement((manager) =>
      manager.update(CatalogModelEntity, { id, source: In(['builtin', 'feed']) }, { modified: true, updatedAt: now }),
    );
  }

  /** Inside the caller's transaction: where the stored row came from and whether the operator changed it (null: no row), read just before a merge writes over it. */
  async originOf(manager: EntityManager, id: string): Promise<Pick<CatalogModelEntity, 'source' | 'modified'> | null> {
    return manager.findOne(CatalogModelEntity, { where: { id }, select: { id: true, source: true, modified: true } });
  }
}
