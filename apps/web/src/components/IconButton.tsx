import type { LucideIcon } from 'lucide-react';
import { forwardRef, type ButtonHTMLAttributes } from 'react';
import { Tooltip } from './Tooltip';

export interface IconButtonProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'children'> {
  /** Accessible name, also the tooltip. */
  label: string;
  icon: LucideIcon;
  tone?: 'default' | 'danger';
  /** Disables the button (still focusable) and shows this instead of the label as the tooltip. */
  disabledReason?: string | null | undefined;
}

/** A small square button with only an icon; its name shows as a tooltip. */
export const IconButton = forwardRef<HTMLButtonElement, IconButtonProps>(function IconButton(
  { label, icon: Icon, tone = 'default', disabledReason, onClick, className = '', ...props },
  ref,
) {
  const blocked = Boolean(disabledReason);
  return (
    <Tooltip content={disabledReason ?? label}>
      <button
        ref={ref}
        type="button"
        aria-label={label}
        aria-disabled={blocked || undefined}
        onClick={(event) => {
          if (blocked) return;
          onClick?.(event);
        }}
        className={`focus-ring flex size-8 shrink-0 items-center justify-center rounded-lg transition-colors disabled:cursor-not-allowed disabled:opacity-40 aria-disabled:cursor-not-allowed aria-disabled:opacity-40 ${
          tone === 'danger'
            ? 'text-slate-500 hover:bg-red-50 hover:text-red-600 aria-disabled:hover:bg-transparent aria-disabled:hover:text-slate-500'
            : 'text-slate-500 hover:bg-slate-100 hover:text-slate-800 aria-disabled:hover:bg-transparent'
        } ${className}`}
        {...props}
      >
        <Icon aria-hidden="true" className="size-4" />
      </button>
    </Tooltip>
  );
});
