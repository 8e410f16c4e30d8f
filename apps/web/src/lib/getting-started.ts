/** The Getting Started video (spec 01 §9: "Onboarding video: 3:59"), recorded from the product by `scripts/getting-started-video.ts`. */
export const GETTING_STARTED_VIDEO_SECONDS = 3 * 60 + 59;
export const GETTING_STARTED_VIDEO_URL = '/getting-started.webm';
export const GETTING_STARTED_POSTER_URL = '/getting-started.jpg';
