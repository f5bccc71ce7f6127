import type { GammaEmulatorServer } from './gamma-emulator';
import type { TestGateway } from './gateway';

/** What the verification e2e suites need over and over: a customer whose verification an admin approved. */
export async function approvedCustomer(
  gw: TestGateway,
  options: { quota?: number; models?: string[] } = {},
): Promise<{ userId: number; key: string }> {
  const customer = await gw.createCustomer({ quota: options.quota ?? 0, models: options.models });
  const filed = await gw.http
    .post('/v1/verification/applications')
    .set('Authorization', `Bearer ${customer.key}`)
    .send({ company: 'Acme', use_case: 'presenter videos', contact: 'ops@acme.test' })
    .expect(201);
  await gw.admin.post(`/api/admin/verification/applications/${filed.body.id}/approve`, {}).expect(200);
  return customer;
}

/** An approved customer who passed a liveness check (confirmed by the provider): owns `groupId`. */
export async function verifiedCustomer(
  gw: TestGateway,
  fake: GammaEmulatorServer,
  options: { quota?: number; models?: string[] } = {},
): Promise<{ userId: number; key: string; groupId: string; sessionId: string }> {
  const customer = await approvedCustomer(gw, options);
  const auth = `Bearer ${customer.key}`;
  const session = await gw.http
    .post('/v1/verification/sessions')
    .set('Authorization', auth)
    .send({ callback_url: 'https://biz.example/cb' })
    .expect(201);
  const groupId = await fake.passSession(session.body.provider_token);
  const confirmed = await gw.http.get(`/v1/verification/sessions/${session.body.session_id}`).set('Authorization', auth).expect(200);
  if (confirmed.body.group_id !== groupId) throw new Error(`session not confirmed: ${JSON.stringify(confirmed.body)}`);
  return { ...customer, groupId, sessionId: session.body.session_id };
}

/** Uploads an asset into the customer's group and lets the provider activate it. */
export async function activeAsset(gw: TestGateway, fake: GammaEmulatorServer, key: string, groupId: string): Promise<string> {
  const auth = `Bearer ${key}`;
  const created = await gw.http
    .post(`/v1/verification/groups/${groupId}/assets`)
    .set('Authorization', auth)
    .send({ url: 'https://cdn.example/face.jpg' })
    .expect(201);
  await fake.setAsset(created.body.asset_id, 'Active');
  const read = await gw.http.get(`/v1/verification/assets/${created.body.asset_id}`).set('Authorization', auth).expect(200);
  if (read.body.status !== 'active') throw new Error(`asset not active: ${JSON.stringify(read.body)}`);
  return created.body.asset_id;
}
