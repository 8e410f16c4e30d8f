import { findProduct, shippingFor } from './catalog.js';

export interface Country {
  code: string;
  name: string;
  /** Checked only on the server, so that the shop has one rule a shopper meets after confirming. */
  postalCode: RegExp;
}

export const COUNTRIES: readonly Country[] = [
  { code: 'CA', name: 'Canada', postalCode: /^[A-Z]\d[A-Z] ?\d[A-Z]\d$/i },
  { code: 'FR', name: 'France', postalCode: /^\d{5}$/ },
  { code: 'DE', name: 'Germany', postalCode: /^\d{5}$/ },
  { code: 'NL', name: 'Netherlands', postalCode: /^\d{4} ?[A-Z]{2}$/i },
  { code: 'ES', name: 'Spain', postalCode: /^\d{5}$/ },
  { code: 'SE', name: 'Sweden', postalCode: /^\d{3} ?\d{2}$/ },
  { code: 'GB', name: 'United Kingdom', postalCode: /^[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}$/i },
  { code: 'US', name: 'United States', postalCode: /^\d{5}(-\d{4})?$/ },
];

export const MAX_QUANTITY_PER_LINE = 10;
const MAX_LINES = 50;

export type CheckoutField = 'fullName' | 'email' | 'address' | 'city' | 'postalCode' | 'country' | 'deliveryDate' | 'terms' | 'items';

export type FieldErrors = Partial<Record<CheckoutField, string>>;

export interface OrderLine {
  productId: string;
  name: string;
  optionLabel: string;
  option: string;
  quantity: number;
  unitPriceCents: number;
  lineTotalCents: number;
}

export interface OrderDraft {
  customer: {
    fullName: string;
    email: string;
    address: string;
    city: string;
    postalCode: string;
    country: string;
    countryName: string;
  };
  deliveryDate: string;
  items: OrderLine[];
  subtotalCents: number;
  shippingCents: number;
  totalCents: number;
}

export type CheckoutResult = { ok: true; draft: OrderDraft } | { ok: false; errors: FieldErrors };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 24 * 60 * 60 * 1000;
/** UTC−12 is the last place on Earth where a given day is still "today". */
const WESTERNMOST_OFFSET_MS = 12 * 60 * 60 * 1000;

/**
 * The earliest delivery date the server accepts, as YYYY-MM-DD.
 *
 * The browser enforces "tomorrow" in the shopper's own time zone, which the server cannot know.
 * So the server accepts the earliest date that is "tomorrow" anywhere: it never rejects a date the
 * page allowed, and still rejects every date that is already today or past for everyone.
 */
export function earliestDeliveryDate(now: Date): string {
  const todayInWesternmostZone = new Date(now.getTime() - WESTERNMOST_OFFSET_MS);
  return new Date(todayInWesternmostZone.getTime() + DAY_MS).toISOString().slice(0, 10);
}

function isRealDate(value: string): boolean {
  const match = ISO_DATE.exec(value);
  if (!match) return false;
  const [, year, month, day] = match.map(Number) as [number, number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function validateItems(value: unknown): { lines: OrderLine[]; error?: string } {
  if (!Array.isArray(value) || value.length === 0) return { lines: [], error: 'Your cart is empty' };
  if (value.length > MAX_LINES) return { lines: [], error: `An order can have at most ${MAX_LINES} lines` };
  const lines: OrderLine[] = [];
  for (const item of value) {
    if (!isRecord(item)) return { lines: [], error: 'Each cart line must be an object' };
    const product = findProduct(text(item['productId']));
    if (!product) return { lines: [], error: `Unknown product "${text(item['productId'])}"` };
    if (!product.inStock) return { lines: [], error: `${product.name} is out of stock; remove it from your cart` };
    const option = text(item['option']);
    if (!product.option.values.includes(option)) {
      return { lines: [], error: `Choose a valid ${product.option.label.toLowerCase()} for ${product.name}` };
    }
    const quantity = item['quantity'];
    if (typeof quantity !== 'number' || !Number.isInteger(quantity) || quantity < 1 || quantity > MAX_QUANTITY_PER_LINE) {
      return { lines: [], error: `Quantity of ${product.name} must be a whole number from 1 to ${MAX_QUANTITY_PER_LINE}` };
    }
    lines.push({
      productId: product.id,
      name: product.name,
      optionLabel: product.option.label,
      option,
      quantity,
      // Prices come from the catalogue, never from the request.
      unitPriceCents: product.priceCents,
      lineTotalCents: product.priceCents * quantity,
    });
  }
  return { lines };
}

/** Validates a checkout request body; messages match the ones the checkout page shows. */
export function validateCheckout(body: unknown, now: Date): CheckoutResult {
  const input = isRecord(body) ? body : {};
  const errors: FieldErrors = {};

  const fullName = text(input['fullName']);
  if (!fullName) errors.fullName = 'Enter your full name';
  else if (fullName.length > 100) errors.fullName = 'Full name must be 100 characters or fewer';

  const email = text(input['email']);
  if (!email) errors.email = 'Enter your email address';
  else if (!EMAIL.test(email) || email.length > 254) errors.email = 'Enter a valid email address, like name@example.com';

  const address = text(input['address']);
  if (!address) errors.address = 'Enter your street address';
  else if (address.length > 200) errors.address = 'Address must be 200 characters or fewer';

  const city = text(input['city']);
  if (!city) errors.city = 'Enter your city';
  else if (city.length > 100) errors.city = 'City must be 100 characters or fewer';

  const countryCode = text(input['country']);
  const country = COUNTRIES.find((candidate) => candidate.code === countryCode);
  if (!country) errors.country = 'Choose a country';

  const postalCode = text(input['postalCode']);
  if (!postalCode) errors.postalCode = 'Enter your postal code';
  else if (country && !country.postalCode.test(postalCode)) {
    errors.postalCode = `Enter a valid postal code for ${country.name}`;
  }

  const deliveryDate = text(input['deliveryDate']);
  if (!deliveryDate) errors.deliveryDate = 'Choose a delivery date';
  else if (!isRealDate(deliveryDate)) errors.deliveryDate = 'Enter the delivery date as YYYY-MM-DD';
  else if (deliveryDate < earliestDeliveryDate(now)) errors.deliveryDate = 'Delivery date must be tomorrow or later';

  if (input['terms'] !== true) errors.terms = 'You must accept the terms and conditions';

  const items = validateItems(input['items']);
  if (items.error) errors.items = items.error;

  if (Object.keys(errors).length > 0 || !country) return { ok: false, errors };

  const subtotalCents = items.lines.reduce((sum, line) => sum + line.lineTotalCents, 0);
  const shippingCents = shippingFor(subtotalCents);
  return {
    ok: true,
    draft: {
      customer: { fullName, email, address, city, postalCode: postalCode.toUpperCase(), country: country.code, countryName: country.name },
      deliveryDate,
      items: items.lines,
      subtotalCents,
      shippingCents,
      totalCents: subtotalCents + shippingCents,
    },
  };
}
