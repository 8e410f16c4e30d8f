import { describe, expect, it } from 'vitest';
import { BoundedMap } from './bounded-map.js';
import { searchProducts, shippingFor } from './catalog.js';
import { earliestDeliveryDate, validateCheckout } from './checkout.js';

const validBody = {
  fullName: 'Dana Demo',
  email: 'demo@rehearse.dev',
  address: 'Hauptstraße 1',
  city: 'Berlin',
  postalCode: '10115',
  country: 'DE',
  deliveryDate: '2030-05-01',
  terms: true,
  items: [{ productId: 'trail-backpack', option: 'Slate', quantity: 2 }],
};

describe('earliestDeliveryDate', () => {
  it('is the day after "today" in the westernmost time zone', () => {
    // 11:00 UTC on 10 March is still 9 March (23:00) at UTC−12, so 10 March is tomorrow there.
    expect(earliestDeliveryDate(new Date('2025-03-10T11:00:00Z'))).toBe('2025-03-10');
    // From 12:00 UTC it is 10 March everywhere, so nobody can call 10 March tomorrow any more.
    expect(earliestDeliveryDate(new Date('2025-03-10T12:00:00Z'))).toBe('2025-03-11');
    expect(earliestDeliveryDate(new Date('2024-12-31T23:59:59Z'))).toBe('2025-01-01');
  });
});

describe('validateCheckout', () => {
  const now = new Date('2025-03-10T12:00:00Z');

  it('accepts a complete order and prices it from the catalogue', () => {
    const result = validateCheckout({ ...validBody, items: [{ ...validBody.items[0], priceCents: 1 }] }, now);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.draft.items).toEqual([
      expect.objectContaining({ name: 'Trail Backpack', option: 'Slate', quantity: 2, unitPriceCents: 8900, lineTotalCents: 17800 }),
    ]);
    expect(result.draft).toMatchObject({ subtotalCents: 17800, shippingCents: 0, totalCents: 17800 });
    expect(result.draft.customer.countryName).toBe('Germany');
  });

  it('names every missing field', () => {
    const result = validateCheckout({}, now);
    expect(result).toEqual({
      ok: false,
      errors: {
        fullName: 'Enter your full name',
        email: 'Enter your email address',
        address: 'Enter your street address',
        city: 'Enter your city',
        postalCode: 'Enter your postal code',
        country: 'Choose a country',
        deliveryDate: 'Choose a delivery date',
        terms: 'You must accept the terms and conditions',
        items: 'Your cart is empty',
      },
    });
  });

  it('treats a body that is not an object as empty rather than throwing', () => {
    for (const body of [null, undefined, 'text', 42, []]) {
      const result = validateCheckout(body, now);
      expect(result.ok).toBe(false);
    }
  });

  it.each([
    ['2025-03-10', 'Delivery date must be tomorrow or later'],
    ['2020-01-01', 'Delivery date must be tomorrow or later'],
    ['2025-02-30', 'Enter the delivery date as YYYY-MM-DD'],
    ['11/03/2025', 'Enter the delivery date as YYYY-MM-DD'],
  ])('rejects delivery date %s', (deliveryDate, message) => {
    const result = validateCheckout({ ...validBody, deliveryDate }, now);
    expect(result.ok ? undefined : result.errors).toEqual({ deliveryDate: message });
  });

  it('accepts tomorrow', () => {
    expect(validateCheckout({ ...validBody, deliveryDate: '2025-03-11' }, now).ok).toBe(true);
  });

  it('checks the postal code against the chosen country', () => {
    const result = validateCheckout({ ...validBody, postalCode: 'SW1A 1AA' }, now);
    expect(result.ok ? undefined : result.errors).toEqual({ postalCode: 'Enter a valid postal code for Germany' });
    expect(validateCheckout({ ...validBody, country: 'GB', postalCode: 'SW1A 1AA' }, now).ok).toBe(true);
  });

  it('rejects bad email, unchecked terms written as a string, and unknown countries', () => {
    const result = validateCheckout({ ...validBody, email: 'dana@', terms: 'true', country: 'XX' }, now);
    expect(result.ok ? undefined : result.errors).toEqual({
      email: 'Enter a valid email address, like name@example.com',
      terms: 'You must accept the terms and conditions',
      country: 'Choose a country',
    });
  });

  it.each([
    [[{ productId: 'nope', option: 'Slate', quantity: 1 }], 'Unknown product "nope"'],
    [[{ productId: 'two-person-tent', option: 'Olive', quantity: 1 }], 'Two-Person Tent is out of stock; remove it from your cart'],
    [[{ productId: 'trail-backpack', option: 'Purple', quantity: 1 }], 'Choose a valid colour for Trail Backpack'],
    [[{ productId: 'trail-backpack', option: 'Slate', quantity: 11 }], 'Quantity of Trail Backpack must be a whole number from 1 to 10'],
    [[{ productId: 'trail-backpack', option: 'Slate', quantity: 1.5 }], 'Quantity of Trail Backpack must be a whole number from 1 to 10'],
    [['trail-backpack'], 'Each cart line must be an object'],
  ])('rejects cart lines %j', (items, message) => {
    const result = validateCheckout({ ...validBody, items }, now);
    expect(result.ok ? undefined : result.errors).toEqual({ items: message });
  });
});

describe('catalogue', () => {
  it('searches name, category and description, every word must match', () => {
    expect(searchProducts('').length).toBe(12);
    expect(searchProducts('  BACKPACK ').map((product) => product.name)).toEqual(['Trail Backpack', 'Trail Backpack Mini']);
    expect(searchProducts('backpack mini').map((product) => product.name)).toEqual(['Trail Backpack Mini']);
    expect(searchProducts('clothing').map((product) => product.name)).toEqual(['Summit Rain Jacket', 'Merino Beanie']);
    expect(searchProducts('kayak')).toEqual([]);
  });

  it('ships free from $100', () => {
    expect(shippingFor(0)).toBe(0);
    expect(shippingFor(9999)).toBe(595);
    expect(shippingFor(10000)).toBe(0);
  });
});

describe('BoundedMap', () => {
  it('forgets the oldest entries past its capacity', () => {
    const map = new BoundedMap<string, number>(2);
    map.set('a', 1);
    map.set('b', 2);
    map.set('a', 3); // rewriting makes "a" the newest
    map.set('c', 4);
    expect(map.has('b')).toBe(false);
    expect(map.get('a')).toBe(3);
    expect(map.get('c')).toBe(4);
    expect(map.size).toBe(2);
  });
});
