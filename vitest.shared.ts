/**
 * What the suite's Node projects share (each project's vitest.config.ts spreads it into `test`).
 *
 * Files reuse their worker's modules (`isolate: false`): isolated, each of the ~200 files imported
 * the server, Playwright and their dependencies afresh in a new process, 1–2 s of CPU per file on
 * a two-core machine that the suite keeps busy (21 server files: 80 s → 55 s wall, 122 → 77 CPU-s).
 * That is safe because a test keeps its state in what it starts (a server on its own database, a
 * browser, a temp folder) and restores any environment variable it sets, never in module state.
 * The web app's unit tests (apps/web/vitest.unit.config.ts) stay isolated: one mocks a module
 * (`vi.mock`), which a shared module graph would hand to the next file. So do the recorder's
 * (packages/recorder/vitest.config.ts says why).
 */
export const SHARED_WORKER_MODULES = { isolate: false } as const;

/**
 * Polled assertions (`expect.poll`) wait on real work: a page's route and render, a server's
 * answer. Vitest's default of 1 s failed on a slower two-core machine under the full suite (the
 * demo shop's browser test saw its held search request 1 s too late), so every project that polls
 * a browser or a server gives them 10 s; a poll that passes still returns as soon as it holds.
 */
export const PATIENT_POLLS = { expect: { poll: { timeout: 10_000 } } } as const;
