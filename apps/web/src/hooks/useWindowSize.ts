import { useSyncExternalStore } from 'react';

export interface WindowSize {
  width: number;
  height: number;
}

let cached: WindowSize = { width: window.innerWidth, height: window.innerHeight };

function snapshot(): WindowSize {
  if (cached.width !== window.innerWidth || cached.height !== window.innerHeight) {
    cached = { width: window.innerWidth, height: window.innerHeight };
  }
  return cached;
}

function subscribe(listener: () => void): () => void {
  window.addEventListener('resize', listener);
  return () => window.removeEventListener('resize', listener);
}

/** The window's inner size, updated on resize. */
export function useWindowSize(): WindowSize {
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}
