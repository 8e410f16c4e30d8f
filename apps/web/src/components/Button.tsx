import { forwardRef, type ButtonHTMLAttributes, type MouseEvent } from 'react';
import { Tooltip } from './Tooltip';

type Variant = 'primary' | 'secondary' | 'ghost' | 'danger';
type Size = 'md' | 'sm' | 'icon';

const variants: Record<Variant, string> = {
  primary:
    'bg-brand-600 text-white shadow-sm hover:bg-brand-700 disabled:bg-brand-600/50 aria-disabled:bg-brand-600/50 aria-disabled:hover:bg-brand-600/50',
  secondary:
    'border border-slate-300 bg-white text-slate-800 shadow-sm hover:bg-slate-50 disabled:text-slate-400 aria-disabled:text-slate-400 aria-disabled:hover:bg-white',
  ghost: 'text-slate-700 hover:bg-slate-100 disabled:text-slate-400 aria-disabled:text-slate-400 aria-disabled:hover:bg-transparent',
  danger: 'bg-red-600 text-white shadow-sm hover:bg-red-700 disabled:bg-red-600/50 aria-disabled:bg-red-600/50',
};

const sizes: Record<Size, string> = {
  md: 'h-10 px-4 text-sm',
  sm: 'h-8 px-3 text-xs',
  icon: 'size-9 text-sm',
};

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: Variant;
  size?: Size;
  /**
   * Disables the button and says why in a tooltip. The button stays focusable (aria-disabled),
   * so keyboard and screen-reader users reach the reason too.
   */
  disabledReason?: string | null | undefined;
}

/** The app's button: four looks, three sizes, one focus ring. */
export const Button = forwardRef<HTMLButtonElement, ButtonProps>(function Button(
  { variant = 'primary', size = 'md', className = '', type = 'button', disabledReason, onClick, ...props },
  ref,
) {
  const blocked = Boolean(disabledReason);
  const button = (
    <button
      ref={ref}
      type={type}
      aria-disabled={blocked || undefined}
      onClick={(event: MouseEvent<HTMLButtonElement>) => {
        if (blocked) {
          event.preventDefault();
          return;
        }
        onClick?.(event);
      }}
      className={`focus-ring inline-flex shrink-0 items-center justify-center gap-2 rounded-lg font-semibold whitespace-nowrap disabled:cursor-not-allowed aria-disabled:cursor-not-allowed ${sizes[size]} ${variants[variant]} ${className}`}
      {...props}
    />
  );
  return blocked ? <Tooltip content={disabledReason}>{button}</Tooltip> : button;
});
