/** Set by vite.config.ts at build time: one id per build. */
declare const __BUILD_ID__: string | undefined;
