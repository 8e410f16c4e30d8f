import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { demoShopApi } from './api.js';

/** Where "version 2" of the shop is mounted, beside version 1 at DEMO_SHOP_PATH. */
export const DEMO_SHOP_V2_PATH = '/demo-shop-v2';

const PUBLIC_ROOT = fileURLToPath(new URL('../public/', import.meta.url));

/**
 * "Version 2" of the demo shop, the self-healing benchmark's target: the same shop after a
 * realistic redesign — ids and classes renamed, DOM reordered, elements wrapped, button and label
 * texts changed by a word, the main menu moved. It is version 1's files with these edits applied
 * when served, so version 1 stays exactly as it is and the two cannot drift apart unnoticed: an
 * edit whose text is no longer in version 1 stops the server.
 */
export const V2_EDITS: Record<string, Array<[from: string, to: string]>> = {
  'login.html': [
    ['<label for="email">Email</label>', '<label for="signin-email">Email address</label>'],
    ['<input id="email" name="email"', '<input id="signin-email" name="email"'],
    ['<label for="password">Password</label>', '<label for="signin-password">Password</label>'],
    ['<input id="password" name="password"', '<input id="signin-password" name="password"'],
    ['class="btn btn-primary btn-block" disabled>Sign in</button>', 'class="button button-main wide" disabled>Log in</button>'],
    // The fields move into a fieldset wrapper.
    ['<form id="login-form" novalidate>', '<form id="signin-form" novalidate><fieldset class="plain">'],
    ['        <!-- Enabled by login.js', '        </fieldset>\n        <!-- Enabled by login.js'],
  ],
  'js/login.js': [["document.getElementById('login-form')", "document.getElementById('signin-form')"]],
  'js/shell.js': [
    // The menu moves after the account area and its classes change; "Products" becomes "Shop", "Cart" becomes "Basket".
    [
      `      <nav class="main-nav" aria-label="Main">
        <ul>
          <li><a href="./"\${current('index.html')}>Products</a></li>
          <li><a class="cart-link" href="cart.html"\${current('cart.html')}>Cart <span class="badge" data-testid="cart-count">\${cartItemCount()}</span><span class="visually-hidden"> items</span></a></li>
        </ul>
      </nav>
      <div class="account">`,
      `      <div class="user-menu">`,
    ],
    [
      `            : \`<a class="btn btn-ghost btn-small" href="\${escapeHtml(signInHref)}"\${current('login.html')}>Sign in</a>\`
        }
      </div>`,
      `            : \`<a class="btn btn-ghost btn-small" href="\${escapeHtml(signInHref)}"\${current('login.html')}>Log in</a>\`
        }
      </div>
      <nav class="primary-menu" aria-label="Main">
        <ul>
          <li><a href="./"\${current('index.html')}>Shop</a></li>
          <li><a class="basket-link" href="cart.html"\${current('cart.html')}>Basket <span class="badge" data-testid="basket-count">\${cartItemCount()}</span><span class="visually-hidden"> items</span></a></li>
        </ul>
      </nav>`,
    ],
    [`document.querySelector('[data-testid="cart-count"]')`, `document.querySelector('[data-testid="basket-count"]')`],
    ['id="sign-out">Sign out</button>', 'id="logout">Sign out</button>'],
    [`header.querySelector('#sign-out')`, `header.querySelector('#logout')`],
    [`toastRegion.setAttribute('data-testid', 'toast');`, `toastRegion.setAttribute('data-testid', 'notification');`],
  ],
  'index.html': [
    ['<form class="search" id="search-form" role="search" action="./">', '<form class="finder" id="find-form" role="search" action="./">'],
    [
      `      <div class="field">
        <label for="search">Search products</label>
        <input id="search" name="q"`,
      `      <div class="field"><div class="input-wrap">
        <label for="query">Search the shop</label>
        <input id="query" name="q"`,
    ],
    [
      'spellcheck="false" placeholder="Try “backpack” or “mug”">\n      </div>',
      'spellcheck="false" placeholder="Try “backpack” or “mug”">\n      </div></div>',
    ],
    ['<button type="submit" class="btn btn-primary">Search</button>', '<button type="submit" class="btn btn-primary">Find</button>'],
    ['id="product-list" class="product-grid"', 'id="catalog" class="product-grid catalog-grid"'],
    ['data-testid="product-list"', 'data-testid="catalog"'],
  ],
  'js/home.js': [
    ["document.getElementById('search-form')", "document.getElementById('find-form')"],
    ["document.getElementById('search')", "document.getElementById('query')"],
    ["document.getElementById('product-list')", "document.getElementById('catalog')"],
    ['</span> to cart</span>', '</span> to bag</span>'],
    ['data-add="${escapeHtml(product.id)}"', 'data-product="${escapeHtml(product.id)}"'],
    ["event.target.closest('button[data-add]')", "event.target.closest('button[data-product]')"],
    ['productsById.get(button.dataset.add)', 'productsById.get(button.dataset.product)'],
    [
      '<h3 class="product-card-name"><a href="${href}">${name}</a></h3>',
      '<h3 class="card-title"><a class="card-link" href="${href}">${name}</a></h3>',
    ],
  ],
  'js/product.js': [
    ['<form id="purchase-form" class="purchase-form" novalidate>', '<form id="buy-form" class="purchase-form buy" novalidate>'],
    ["view.querySelector('#purchase-form')", "view.querySelector('#buy-form')"],
    ['<label for="option">', '<label for="variant">'],
    ['<select id="option" name="option">', '<select id="variant" name="option">'],
    ['<label for="quantity">Quantity</label>', '<label for="qty">How many</label>'],
    ['<input id="quantity" name="quantity"', '<input id="qty" name="quantity"'],
    [
      `class="btn btn-primary"\${product.inStock ? '' : ' disabled'}>Add to cart</button>`,
      `class="btn btn-primary add-btn"\${product.inStock ? '' : ' disabled'}>Add to bag</button>`,
    ],
    ['data-testid="product-price"', 'data-testid="price"'],
  ],
  'js/cart.js': [
    [
      '<a class="btn btn-primary btn-block" href="checkout.html">Proceed to checkout</a>',
      '<div class="actions"><a class="cta checkout-link" href="checkout.html">Continue to checkout</a></div>',
    ],
    ['data-remove>Remove<span', 'data-delete>Delete<span'],
    ["event.target.closest('button[data-remove]')", "event.target.closest('button[data-delete]')"],
    ['data-testid="cart-total"', 'data-testid="order-total"'],
  ],
  'checkout.html': [
    ['<label for="fullName">Full name</label>', '<label for="name">Your name</label>'],
    ['<input id="fullName" name="fullName"', '<input id="name" name="fullName"'],
    ['<label for="email">Email</label>', '<label for="contact-email">Email address</label>'],
    ['<input id="email" name="email"', '<input id="contact-email" name="email"'],
    ['<label for="postalCode">Postal code</label>', '<label for="zip">ZIP code</label>'],
    ['<input id="postalCode" name="postalCode"', '<input id="zip" name="postalCode"'],
    ['<label for="country">Country</label>', '<label for="country-select">Country/Region</label>'],
    ['<select id="country" name="country"', '<select id="country-select" name="country"'],
    ['<input id="terms" name="terms" type="checkbox">', '<input id="accept-terms" name="terms" type="checkbox">'],
    [
      '<label for="terms">I agree to the terms and conditions</label>',
      '<label for="accept-terms">I accept the terms and conditions</label>',
    ],
    [
      'class="btn btn-primary btn-block" id="place-order">Place order</button>',
      'class="btn btn-primary btn-block" id="submit-order">Place your order</button>',
    ],
    ['data-action="confirm">Confirm</button>', 'data-action="confirm">Confirm order</button>'],
  ],
  'js/checkout.js': [
    ["document.getElementById('place-order')", "document.getElementById('submit-order')"],
    ['document.querySelector(`#country option', 'document.querySelector(`#country-select option'],
  ],
};

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/** Version 1's file with version 2's edits; throws when an edit no longer finds its text. */
export async function v2File(relative: string): Promise<string> {
  let text = await readFile(path.join(PUBLIC_ROOT, relative), 'utf8');
  for (const [from, to] of V2_EDITS[relative] ?? []) {
    if (!text.includes(from)) throw new Error(`demo shop v2: "${from.slice(0, 60)}" is no longer in ${relative}`);
    text = text.replace(from, to);
  }
  return text;
}

/** Registers version 2: the same API, the edited pages. Mount it with `{ prefix: DEMO_SHOP_V2_PATH }`. */
export async function demoShopV2Plugin(app: FastifyInstance, opts: { productDelayMs?: number }): Promise<void> {
  // Fail at start, not on the first request, when version 1 moved away from an edit.
  for (const file of Object.keys(V2_EDITS)) await v2File(file);
  const prefix = app.prefix;
  app.get('', (_request, reply) => reply.redirect(`${prefix}/`, 301));
  await app.register(demoShopApi, { prefix: '/api', productDelayMs: Math.max(0, opts.productDelayMs ?? 0) });
  app.get('/*', async (request, reply) => {
    const wanted = (request.params as { '*': string })['*'] || 'index.html';
    const relative = path.posix.normalize(wanted);
    if (relative.startsWith('..') || path.isAbsolute(relative) || !TYPES[path.extname(relative)])
      return reply.status(404).send('Not found');
    try {
      return reply.type(TYPES[path.extname(relative)]!).send(await v2File(relative));
    } catch {
      return reply.status(404).send('Not found');
    }
  });
}
