import type { CancellableState, UpstreamAdapter } from '../upstream/upstream-adapter';
import type { FamilyDefinition } from './family';
import { FAMILIES } from './family-registry';
import { cancelCapabilities, familiesOf, familyNames, modelsByFamily } from './family-docs';

class NoCancel {}
class CancelsAnything {
  cancel(): Promise<void> {
    return Promise.resolve();
  }
}
class CancelsQueued extends CancelsAnything {
  get cancelWhile(): readonly CancellableState[] {
    return ['queued'];
  }
}

const family = (en: string, adapter: new () => object, fields: Partial<FamilyDefinition> = {}) =>
  ({
    label: { en, 'zh-CN': en },
    adapter: adapter as new () => UpstreamAdapter,
    models: [],
    forms: [],
    ...fields,
  }) as unknown as FamilyDefinition;

describe('family-docs: what the API documentation says of the families, from the families', () => {
  it('names them as a list', () => {
    expect(familyNames([family('A', NoCancel)])).toBe('A');
    expect(familyNames([family('A', NoCancel), family('B', NoCancel), family('C', NoCancel)], 'or')).toBe('A, B or C');
  });

  it("lists each family of a form in registry order, with its models (or, of an open list, the simulator's)", () => {
    expect(familiesOf('unified').map((each) => each.platform)).toEqual(
      FAMILIES.filter((each) => each.forms.includes('unified')).map((each) => each.platform),
    );
    expect(
      modelsByFamily([
        family('A', NoCancel, { models: ['a-1', 'a-2'] }),
        family('O', NoCancel, { models: ['o-1'], modelsFromChannels: true }),
      ]),
    ).toBe("A: `a-1`, `a-2`; O: the models its channels list (the simulator's: `o-1`)");
  });

  it("says which providers stop which tasks, from each adapter class's cancel and cancelWhile", () => {
    expect(
      cancelCapabilities([family('A', NoCancel), family('B', NoCancel), family('C', CancelsQueued), family('R', CancelsAnything)]),
    ).toEqual({
      stops: 'a C task still queued upstream; a R task not finished upstream',
      cannot: 'never: A and B; not C while running',
    });
  });
});
