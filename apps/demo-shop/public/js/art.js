// Product pictures drawn as inline SVG, so the shop has no image files to serve or to go missing.

import { escapeHtml } from './shell.js';

const W = 'fill="#fff"';

const ICONS = {
  backpack: (c) => `
    <path d="M48 32v-6a12 12 0 0 1 24 0v6" fill="none" stroke="${c}" stroke-width="6"/>
    <rect x="32" y="30" width="56" height="70" rx="18" fill="${c}"/>
    <rect x="40" y="64" width="40" height="26" rx="8" ${W} opacity=".22"/>
    <rect x="40" y="64" width="40" height="5" rx="2.5" ${W} opacity=".35"/>
    <rect x="52" y="44" width="16" height="5" rx="2.5" ${W} opacity=".6"/>`,
  jacket: (c) => `
    <path d="M45 22 60 30l15-8 20 12 10 38-15 4-4-18v42H34V58l-4 18-15-4 10-38z" fill="${c}"/>
    <path d="M60 32v66" stroke="#fff" stroke-opacity=".55" stroke-width="3"/>
    <path d="M45 22 60 40l15-18" fill="none" stroke="#fff" stroke-opacity=".4" stroke-width="3"/>
    <rect x="40" y="66" width="12" height="3" rx="1.5" ${W} opacity=".5"/>
    <rect x="68" y="66" width="12" height="3" rx="1.5" ${W} opacity=".5"/>`,
  mug: (c) => `
    <path d="M45 26q-4-6 0-12m12 12q-4-6 0-12" fill="none" stroke="${c}" stroke-opacity=".45" stroke-width="3" stroke-linecap="round"/>
    <path d="M80 50h7a12 12 0 0 1 0 24h-7" fill="none" stroke="${c}" stroke-width="7"/>
    <rect x="28" y="34" width="54" height="60" rx="9" fill="${c}"/>
    <ellipse cx="55" cy="35" rx="27" ry="5" ${W} opacity=".35"/>
    <circle cx="40" cy="56" r="1.8" ${W} opacity=".6"/><circle cx="62" cy="70" r="1.8" ${W} opacity=".6"/>
    <circle cx="50" cy="82" r="1.8" ${W} opacity=".6"/><circle cx="70" cy="50" r="1.8" ${W} opacity=".6"/>`,
  bottle: (c) => `
    <rect x="49" y="14" width="22" height="12" rx="4" fill="${c}" opacity=".75"/>
    <path d="M50 28h20q4 0 4 4v6q10 6 10 16v44q0 8-8 8H44q-8 0-8-8V54q0-10 10-16v-6q0-4 4-4z" fill="${c}"/>
    <rect x="36" y="60" width="48" height="20" ${W} opacity=".25"/>
    <rect x="42" y="46" width="4" height="48" rx="2" ${W} opacity=".3"/>`,
  tent: (c) => `
    <path d="M60 20 106 96H14z" fill="${c}"/>
    <path d="M60 20 76 96H44z" ${W} opacity=".25"/>
    <path d="M60 52 69 96H51z" fill="#000" opacity=".28"/>
    <path d="M8 97h104" stroke="${c}" stroke-width="4" stroke-linecap="round"/>
    <path d="M60 20v-8" stroke="${c}" stroke-width="3" stroke-linecap="round"/>`,
  headlamp: (c) => `
    <path d="M20 70C20 38 100 38 100 70" fill="none" stroke="${c}" stroke-opacity=".45" stroke-width="9" stroke-linecap="round"/>
    <path d="M48 88 34 108m26-20v22m12-22 14 20" stroke="${c}" stroke-opacity=".35" stroke-width="4" stroke-linecap="round"/>
    <rect x="38" y="50" width="44" height="36" rx="12" fill="${c}"/>
    <circle cx="60" cy="68" r="12" ${W}/>
    <circle cx="60" cy="68" r="7" fill="#ffe59a"/>`,
  shoe: (c) => `
    <path d="M14 80c0-14 6-28 16-34l18 8c8 4 18 7 30 9 16 2 28 9 28 19v6H14z" fill="${c}"/>
    <path d="M14 88h92v5q0 5-5 5H19q-5 0-5-5z" fill="${c}" opacity=".55"/>
    <path d="M40 56l8-7m0 11 8-7m0 10 8-7" stroke="#fff" stroke-width="3" stroke-linecap="round"/>
    <path d="M20 80h86" stroke="#fff" stroke-opacity=".35" stroke-width="3"/>`,
  beanie: (c) => `
    <circle cx="60" cy="24" r="10" fill="${c}" opacity=".8"/>
    <path d="M24 80c0-30 16-48 36-48s36 18 36 48z" fill="${c}"/>
    <rect x="20" y="74" width="80" height="22" rx="7" fill="${c}"/>
    <rect x="20" y="74" width="80" height="22" rx="7" ${W} opacity=".2"/>
    <path d="M32 78v14m10-14v14m10-14v14m10-14v14m10-14v14m10-14v14" stroke="#fff" stroke-opacity=".35" stroke-width="2.5"/>`,
  sunglasses: (c) => `
    <path d="M12 52h96" stroke="${c}" stroke-width="5" stroke-linecap="round"/>
    <path d="M54 56q6-7 12 0" fill="none" stroke="${c}" stroke-width="5"/>
    <rect x="16" y="48" width="38" height="30" rx="13" fill="${c}"/>
    <rect x="66" y="48" width="38" height="30" rx="13" fill="${c}"/>
    <path d="M25 58l9-5m41 5 9-5" stroke="#fff" stroke-opacity=".6" stroke-width="3" stroke-linecap="round"/>`,
  notebook: (c) => `
    <rect x="30" y="18" width="60" height="84" rx="7" fill="${c}"/>
    <rect x="30" y="18" width="11" height="84" rx="5" fill="#000" opacity=".2"/>
    <rect x="50" y="36" width="32" height="14" rx="3" ${W} opacity=".85"/>
    <rect x="76" y="18" width="5" height="84" fill="#000" opacity=".22"/>`,
  headphones: (c) => `
    <path d="M27 72V58a33 33 0 0 1 66 0v14" fill="none" stroke="${c}" stroke-width="8" stroke-linecap="round"/>
    <rect x="17" y="62" width="24" height="38" rx="10" fill="${c}"/>
    <rect x="79" y="62" width="24" height="38" rx="10" fill="${c}"/>
    <rect x="34" y="67" width="9" height="28" rx="4.5" ${W} opacity=".3"/>
    <rect x="77" y="67" width="9" height="28" rx="4.5" ${W} opacity=".3"/>`,
};

/**
 * The picture of a product. Decorative by default, because the product's name is always next to
 * it; pass a label where the picture stands on its own.
 */
export function productArt(art, label) {
  const draw = ICONS[art?.icon] ?? ICONS.backpack;
  const colour = /^#[0-9a-f]{6}$/i.test(art?.colour ?? '') ? art.colour : '#4f6d7a';
  const a11y = label
    ? `role="img" aria-label="${escapeHtml(label)}"`
    : 'aria-hidden="true"';
  return `<svg class="art-svg" viewBox="0 0 120 120" ${a11y} focusable="false">${draw(colour)}</svg>`;
}

export function artBackground(art) {
  const colour = /^#[0-9a-f]{6}$/i.test(art?.colour ?? '') ? art.colour : '#4f6d7a';
  return `--art: ${colour}`;
}
