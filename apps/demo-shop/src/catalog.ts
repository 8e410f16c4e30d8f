export type ProductIcon =
  'backpack' | 'jacket' | 'mug' | 'bottle' | 'tent' | 'headlamp' | 'shoe' | 'beanie' | 'sunglasses' | 'notebook' | 'headphones';

export interface ProductOption {
  /** Shown as the label of the product page's select, e.g. "Colour" or "Size". */
  label: 'Colour' | 'Size';
  values: string[];
}

export interface Product {
  id: string;
  name: string;
  category: string;
  description: string;
  /** Integer cents, so totals never pick up floating-point pennies. */
  priceCents: number;
  inStock: boolean;
  option: ProductOption;
  art: { icon: ProductIcon; colour: string };
}

export const CURRENCY = 'USD';

/** Orders at or above this subtotal ship free; below it a flat rate applies. */
export const FREE_SHIPPING_FROM_CENTS = 10_000;
export const SHIPPING_CENTS = 595;

export const PRODUCTS: readonly Product[] = [
  {
    id: 'trail-backpack',
    name: 'Trail Backpack',
    category: 'Bags',
    description: 'A 28-litre pack with a ventilated back panel, hip-belt pockets and a rain cover tucked into the base.',
    priceCents: 8900,
    inStock: true,
    option: { label: 'Colour', values: ['Forest', 'Slate', 'Sunset'] },
    art: { icon: 'backpack', colour: '#2f7d5b' },
  },
  {
    // Shares a prefix with the Trail Backpack on purpose: locators that match by substring find both.
    id: 'trail-backpack-mini',
    name: 'Trail Backpack Mini',
    category: 'Bags',
    description: 'The Trail Backpack shrunk to 16 litres for short hikes and city days. Fits a 13-inch laptop.',
    priceCents: 5900,
    inStock: true,
    option: { label: 'Colour', values: ['Forest', 'Slate'] },
    art: { icon: 'backpack', colour: '#4f6d7a' },
  },
  {
    id: 'summit-rain-jacket',
    name: 'Summit Rain Jacket',
    category: 'Clothing',
    description: 'Three-layer waterproof shell with taped seams, pit zips and a helmet-compatible hood.',
    priceCents: 14900,
    inStock: true,
    option: { label: 'Size', values: ['XS', 'S', 'M', 'L', 'XL'] },
    art: { icon: 'jacket', colour: '#c2553a' },
  },
  {
    id: 'enamel-camp-mug',
    name: 'Enamel Camp Mug',
    category: 'Camp kitchen',
    description: 'A 350 ml steel mug with a speckled enamel finish. Goes from the stove to the campfire.',
    priceCents: 1450,
    inStock: true,
    option: { label: 'Colour', values: ['White', 'Navy', 'Red'] },
    art: { icon: 'mug', colour: '#3b5ba5' },
  },
  {
    id: 'insulated-water-bottle',
    name: 'Insulated Water Bottle',
    category: 'Hydration',
    description: 'Double-walled stainless steel keeps drinks cold for 24 hours or hot for 12.',
    priceCents: 3200,
    inStock: true,
    option: { label: 'Size', values: ['500 ml', '750 ml', '1 l'] },
    art: { icon: 'bottle', colour: '#1b8a9a' },
  },
  {
    id: 'two-person-tent',
    name: 'Two-Person Tent',
    category: 'Shelter',
    description: 'Freestanding, 1.9 kg, with two doors and two vestibules. Pitches in under five minutes.',
    priceCents: 22900,
    // Out of stock so that shoppers and tests meet a disabled "Add to cart" button.
    inStock: false,
    option: { label: 'Colour', values: ['Olive', 'Sand'] },
    art: { icon: 'tent', colour: '#6b7b3a' },
  },
  {
    id: 'ridge-headlamp',
    name: 'Ridge Headlamp',
    category: 'Lighting',
    description: '400 lumens, a red night mode and a USB-C rechargeable battery that lasts all weekend.',
    priceCents: 3995,
    inStock: true,
    option: { label: 'Colour', values: ['Black', 'Orange'] },
    art: { icon: 'headlamp', colour: '#e08a1e' },
  },
  {
    id: 'trail-running-shoes',
    name: 'Trail Running Shoes',
    category: 'Footwear',
    description: 'Grippy lugs, a rock plate and a roomy toe box for long days on technical ground.',
    priceCents: 11900,
    inStock: true,
    option: { label: 'Size', values: ['EU 38', 'EU 39', 'EU 40', 'EU 41', 'EU 42', 'EU 43', 'EU 44', 'EU 45'] },
    art: { icon: 'shoe', colour: '#8a3ab9' },
  },
  {
    id: 'merino-beanie',
    name: 'Merino Beanie',
    category: 'Clothing',
    description: 'Soft, itch-free merino wool that stays warm when damp. One size fits most.',
    priceCents: 2400,
    inStock: true,
    option: { label: 'Colour', values: ['Charcoal', 'Mustard', 'Teal'] },
    art: { icon: 'beanie', colour: '#c99a1d' },
  },
  {
    id: 'polarized-sunglasses',
    name: 'Polarized Sunglasses',
    category: 'Accessories',
    description: 'Category 3 polarized lenses in a light, flexible frame that stays put on the move.',
    priceCents: 5900,
    inStock: true,
    option: { label: 'Colour', values: ['Tortoise', 'Matte Black'] },
    art: { icon: 'sunglasses', colour: '#444c5c' },
  },
  {
    id: 'waterproof-field-notebook',
    name: 'Waterproof Field Notebook',
    category: 'Stationery',
    description: 'Stone-paper pages you can write on in the rain, with a grid on one side and lines on the other.',
    priceCents: 1200,
    inStock: true,
    option: { label: 'Size', values: ['Pocket', 'A5'] },
    art: { icon: 'notebook', colour: '#a0522d' },
  },
  {
    id: 'travel-headphones',
    name: 'Travel Headphones',
    category: 'Electronics',
    description: 'Noise-cancelling over-ear headphones that fold flat, with 30 hours of battery.',
    priceCents: 9900,
    inStock: true,
    option: { label: 'Colour', values: ['Black', 'Silver'] },
    art: { icon: 'headphones', colour: '#2b2d42' },
  },
];

const productsById = new Map(PRODUCTS.map((product) => [product.id, product]));

export function findProduct(id: string): Product | undefined {
  return productsById.get(id);
}

/** Every word of the query must appear in the product's name, category or description. */
export function searchProducts(query: string): Product[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...PRODUCTS];
  return PRODUCTS.filter((product) => {
    const haystack = `${product.name} ${product.category} ${product.description}`.toLowerCase();
    return words.every((word) => haystack.includes(word));
  });
}

export function shippingFor(subtotalCents: number): number {
  return subtotalCents === 0 || subtotalCents >= FREE_SHIPPING_FROM_CENTS ? 0 : SHIPPING_CENTS;
}
