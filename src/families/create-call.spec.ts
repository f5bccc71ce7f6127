import { BearerJsonAdapter } from '../upstream/bearer-json-adapter';
import { AlphaUpstreamAdapter } from './alpha/alpha-upstream.adapter';
import { FAMILIES } from './family-registry';

/** Family A's create call is its own client's `generate`, marked there (alpha-api.client.ts). */
const OWN_CREATE_CALL: ReadonlySet<unknown> = new Set([AlphaUpstreamAdapter]);

describe("the create call is the seam's, in every family", () => {
  it.each(FAMILIES.filter((family) => !OWN_CREATE_CALL.has(family.adapter)).map((family) => [family.platform, family.adapter] as const))(
    '%s submits through BearerJsonAdapter.submit, never a submit of its own',
    (_platform, adapter) => {
      expect(adapter.prototype).toBeInstanceOf(BearerJsonAdapter);
      const ownSubmits: string[] = [];
      for (let proto = adapter.prototype; proto !== BearerJsonAdapter.prototype; proto = Object.getPrototypeOf(proto))
        if (Object.prototype.hasOwnProperty.call(proto, 'submit')) ownSubmits.push(proto.constructor.name);
      expect(ownSubmits).toEqual([]);
    },
  );
});
