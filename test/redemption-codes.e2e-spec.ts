import request from 'supertest';
import { startGateway, TestGateway } from './support/gateway';
import { describeEachDatabase, FreshDatabase, freshDatabase, itOnSqliteOnly, queryDatabase } from './support/test-databases';

const PASSWORD = 'correct-horse';
const HOUR_S = 3600;

/** Money in: an operator makes codes worth quota, a customer redeems one in the console, once. */
describeEachDatabase('redemption codes', (kind) => {
  let database: FreshDatabase;
  let a: TestGateway;
  let b: TestGateway;
  let counter = 0;

  beforeAll(async () => {
    database = await freshDatabase(kind);
    // Two instances on one database: a redeem may land on either.
    a = await startGateway(kind, {}, database);
    b = await startGateway(kind, {}, database);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database?.drop();
  });

  /** A customer signed in to the console of `gw`: posts carry the session cookie and the CSRF token. */
  async function customer(gw: TestGateway = a) {
    const username = `redeemer_${kind}_${++counter}`;
    const created = await a.admin.post('/api/admin/users', { username, password: PASSWORD, quota: 1000 }).expect(201);
    const session = await gw.http.post('/console/api/session').send({ username, password: PASSWORD }).expect(200);
    const cookie = String(([] as string[]).concat(session.headers['set-cookie'] ?? [])[0]).split(';')[0];
    const csrf = session.body.csrf_token as string;
    return {
      id: created.body.id as number,
      redeem: (code: string, on: TestGateway = gw): request.Test =>
        on.http.post('/console/api/redeem').set('Cookie', cookie).set('X-CSRF-Token', csrf).send({ code }),
    };
  }
  const makeCodes = async (body: Record<string, unknown>) =>
    (await a.admin.post('/api/admin/redemption-codes', body).expect(201)).body.data;
  const listed = async () => (await a.admin.get('/api/admin/redemption-codes?page_size=100').expect(200)).body;
  const ledgerOf = async (userId: number) => (await a.admin.get(`/api/admin/logs?user_id=${userId}&page_size=100`).expect(200)).body.data;

  it('makes codes shown once and stored hashed; a customer redeems one as typed, into one topup row naming it', async () => {
    const expiresAt = Math.floor(a.clock.now() / 1000) + HOUR_S;
    const codes = await makeCodes({ quota: 5000, count: 3, expires_at: expiresAt });
    expect(codes).toHaveLength(3);
    for (const code of codes) {
      expect(code).toMatchObject({ quota: 5000, state: 'unused', expires_at: expiresAt, redeemed_by: null, batch_id: codes[0].id });
      expect(code.code).toMatch(/^[0-9A-Z]{4}(-[0-9A-Z]{4}){4}$/);
    }
    // Listed without the codes; the database holds no code either.
    const list = await listed();
    expect(JSON.stringify(list)).not.toContain(codes[0].code);
    const rows = await queryDatabase(database, 'SELECT * FROM redemption_codes');
    for (const code of codes) expect(JSON.stringify(rows)).not.toContain(code.code.replace(/-/g, ''));

    const buyer = await customer();
    // Typed by hand: lower case, spaces for dashes.
    const typed = ` ${codes[1].code.toLowerCase().replace(/-/g, ' ')} `;
    const res = await buyer.redeem(typed).expect(200);
    expect(res.body).toEqual({ quota_added: 5000, quota: 6000 });
    expect(await a.balance(buyer.id)).toMatchObject({ quota: 6000 });
    const topups = (await ledgerOf(buyer.id)).filter((log: { type: string }) => log.type === 'topup');
    expect(topups.map((log: { quota: number; detail: string }) => [log.quota, log.detail])).toEqual(
      expect.arrayContaining([[5000, expect.stringContaining(`…${codes[1].code_hint}`)]]),
    );
    const after = (await listed()).data.find((code: { id: number }) => code.id === codes[1].id);
    expect(after).toMatchObject({ state: 'redeemed', redeemed_by: buyer.id, redeemed_at: expect.any(Number) });
  });

  it('refuses a code redeemed already, one that does not exist and one past its date with a 400 saying why; nothing moves', async () => {
    const [used, late] = await makeCodes({ quota: 700, count: 2, expires_at: Math.floor(a.clock.now() / 1000) + HOUR_S });
    const first = await customer();
    const second = await customer();
    await first.redeem(used.code).expect(200);
    const again = await first.redeem(used.code).expect(400);
    expect(again.body.error).toMatchObject({ param: 'code', message: 'this code has already been redeemed' });
    expect((await second.redeem(used.code).expect(400)).body.error.message).toBe('this code has already been redeemed');
    const unknown = await second.redeem('AAAA-BBBB-CCCC-DDDD-EEEE').expect(400);
    expect(unknown.body.error).toMatchObject({ param: 'code', message: expect.stringContaining('does not exist') });
    a.clock.advance((HOUR_S + 1) * 1000);
    b.clock.advance((HOUR_S + 1) * 1000);
    expect((await second.redeem(late.code).expect(400)).body.error.message).toBe('this code has expired');
    expect((await listed()).data.find((code: { id: number }) => code.id === late.id).state).toBe('expired');
    expect(await a.balance(first.id)).toMatchObject({ quota: 1700 });
    expect(await a.balance(second.id)).toMatchObject({ quota: 1000 });
  });

  it('20 redeems of one code at once, over two instances and ten customers: one top-up, the others a 400', async () => {
    const [code] = await makeCodes({ quota: 9000, count: 1 });
    const customers = await Promise.all(Array.from({ length: 10 }, (_, i) => customer(i % 2 ? b : a)));
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => customers[i % 10].redeem(code.code, i % 2 ? b : a).then((res) => res.status)),
    );
    expect(answers.filter((status) => status === 200)).toHaveLength(1);
    expect(answers.filter((status) => status === 400)).toHaveLength(19);
    const balances = await Promise.all(customers.map((c) => a.balance(c.id)));
    expect(balances.filter((balance) => balance.quota === 10_000)).toHaveLength(1);
    expect(balances.filter((balance) => balance.quota === 1000)).toHaveLength(9);
    const topups = await queryDatabase(database, `SELECT COUNT(*) AS n FROM logs WHERE type = 'topup' AND quota = 9000`);
    expect(Number(topups[0].n)).toBe(1);
  });

  itOnSqliteOnly(kind)('refuses bad batches with a 400 naming the field, making nothing', async () => {
    const before = (await listed()).total;
    const now = Math.floor(a.clock.now() / 1000);
    for (const [body, param] of [
      [{ quota: 0, count: 1 }, 'quota'],
      [{ quota: 1.5, count: 1 }, 'quota'],
      [{ quota: 100, count: 0 }, 'count'],
      [{ quota: 100, count: 1001 }, 'count'],
      [{ quota: 100, count: 1, expires_at: now - 10 }, 'expires_at'],
      [{ quota: 100, count: 1, expires_at: 'tomorrow' }, 'expires_at'],
    ] as const) {
      const res = await a.admin.post('/api/admin/redemption-codes', body).expect(400);
      expect([body, res.body.error.param]).toEqual([body, param]);
    }
    expect((await listed()).total).toBe(before);
  });

  itOnSqliteOnly(kind)('only a signed-in customer redeems: an API key or no session is a 401, and the code stays unused', async () => {
    const [code] = await makeCodes({ quota: 100, count: 1 });
    await a.http.post('/console/api/redeem').send({ code: code.code }).expect(401);
    const key = await a.createCustomer({ quota: 0 });
    const withKey = await a.http.post('/console/api/redeem').set('Authorization', `Bearer ${key.key}`).send({ code: code.code });
    expect(withKey.status).toBe(401);
    expect((await listed()).data.find((row: { id: number }) => row.id === code.id).state).toBe('unused');
  });
});
