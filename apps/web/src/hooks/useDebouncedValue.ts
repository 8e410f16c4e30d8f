import { useEffect, useState } from 'react';

/** `value`, once it has stopped changing for `delayMs` (search boxes: spec 02 §9, 500 ms). */
export function useDebouncedValue<T>(value: T, delayMs: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}
