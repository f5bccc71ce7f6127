import { EndpointSendSlots } from './endpoint-send-slots';

describe('EndpointSendSlots', () => {
  it('gives each endpoint its own slots; tryTake refuses when they are all taken', () => {
    const slots = new EndpointSendSlots(2);
    expect([slots.tryTake(1), slots.tryTake(1), slots.tryTake(1)]).toEqual([true, true, false]);
    expect(slots.tryTake(2)).toBe(true);
    slots.give(1);
    expect(slots.tryTake(1)).toBe(true);
  });

  it('hands a freed slot to the first waiter before anyone else may take it', async () => {
    const slots = new EndpointSendSlots(1);
    expect(slots.tryTake(7)).toBe(true);
    const order: string[] = [];
    const first = slots.take(7).then(() => order.push('first'));
    const second = slots.take(7).then(() => order.push('second'));
    slots.give(7);
    expect(slots.tryTake(7)).toBe(false);
    await first;
    expect(order).toEqual(['first']);
    slots.give(7);
    await second;
    slots.give(7);
    expect(order).toEqual(['first', 'second']);
    expect(slots.tryTake(7)).toBe(true);
  });
});
