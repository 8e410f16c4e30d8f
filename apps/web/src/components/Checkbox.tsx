import { useEffect, useRef, type InputHTMLAttributes } from 'react';

export interface CheckboxProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'checked'> {
  /** true, false, or 'mixed' for a parent with some children checked. */
  checked: boolean | 'mixed';
}

/** A native checkbox that can also be mixed (tri-state); browsers announce `indeterminate` as mixed. */
export function Checkbox({ checked, className = '', ...props }: CheckboxProps) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = checked === 'mixed';
  }, [checked]);
  return (
    <input
      ref={ref}
      type="checkbox"
      checked={checked === true}
      className={`focus-ring size-4 shrink-0 cursor-pointer rounded border-slate-300 accent-brand-600 ${className}`}
      {...props}
    />
  );
}
