import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import type { ReactNode } from 'react';

export interface MenuProps {
  /** Accessible name of the button that opens the menu. */
  label: string;
  /** What the button shows. */
  button: ReactNode;
  buttonClassName?: string;
  /** Which edge of the button the menu lines up with. */
  align?: 'start' | 'end';
  /** Whether the menu opens below the button or above it (at the bottom of the sidebar). */
  side?: 'bottom' | 'top';
  /** Classes of the wrapper (e.g. full width in the sidebar). */
  className?: string;
  menuClassName?: string;
  children: ReactNode;
}

/**
 * A menu button (WAI-ARIA menu pattern, Radix DropdownMenu): Enter, Space or ArrowDown open it on
 * the first item, ArrowUp on the last; arrows (wrapping round), Home/End and typing a letter move between items;
 * Escape closes it and gives focus back to the button; a click outside closes it.
 */
export function Menu({
  label,
  button,
  buttonClassName = '',
  align = 'start',
  side = 'bottom',
  className = '',
  menuClassName = '',
  children,
}: MenuProps) {
  return (
    <div className={`relative ${className}`}>
      {/* Not modal: a click outside closes the menu and still reaches what it was aimed at, as before. */}
      <DropdownMenu.Root modal={false}>
        <DropdownMenu.Trigger asChild>
          <button type="button" aria-label={label} className={`focus-ring ${buttonClassName}`}>
            {button}
          </button>
        </DropdownMenu.Trigger>
        {/* In a portal, so no scrolling container clips it; 14rem wide, as when it sat beside its button. */}
        <DropdownMenu.Portal>
          <DropdownMenu.Content
            side={side}
            align={align}
            sideOffset={8}
            collisionPadding={8}
            loop
            className={`z-40 w-56 rounded-xl border border-slate-200 bg-white p-1.5 shadow-lg ring-1 ring-black/5 ${menuClassName}`}
          >
            {children}
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
    </div>
  );
}

const itemClass =
  'flex w-full cursor-default items-center gap-2.5 rounded-lg px-3 py-2 text-left text-sm text-slate-700 outline-none select-none hover:bg-slate-100 focus:bg-slate-100 focus-visible:ring-2 focus-visible:ring-brand-500 data-[highlighted]:bg-slate-100';

/** An action in a menu; choosing it closes the menu. A disabled one is announced and skipped by the arrows. */
export function MenuItem({
  onSelect,
  children,
  title,
  disabled = false,
}: {
  onSelect: () => void;
  children: ReactNode;
  title?: string;
  disabled?: boolean;
}) {
  return (
    <DropdownMenu.Item title={title} disabled={disabled} className={`${itemClass} data-[disabled]:opacity-50`} onSelect={onSelect}>
      {children}
    </DropdownMenu.Item>
  );
}

/** A non-interactive block at the top of a menu (who is signed in). */
export function MenuHeader({ children }: { children: ReactNode }) {
  return <DropdownMenu.Label className="mb-1 border-b border-slate-100 px-3 pt-1.5 pb-2.5">{children}</DropdownMenu.Label>;
}
