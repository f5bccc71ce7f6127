import type { FindOptionsOrder, FindOptionsWhere, ObjectLiteral, Repository } from 'typeorm';

/** One page of rows (1-based `page`) and the total matching `where`, newest id first unless `order` says otherwise. */
export async function findPage<T extends ObjectLiteral & { id: number }>(
  repository: Repository<T>,
  where: FindOptionsWhere<T>,
  paging: { page: number; pageSize: number },
  order: FindOptionsOrder<T> = { id: 'DESC' } as FindOptionsOrder<T>,
): Promise<{ data: T[]; total: number }> {
  const [data, total] = await repository.findAndCount({ where, order, skip: (paging.page - 1) * paging.pageSize, take: paging.pageSize });
  return { data, total };
}
