import * as Popover from '@radix-ui/react-popover';
import { Check, ChevronsUpDown, type LucideIcon } from 'lucide-react';
import { Tooltip } from './Tooltip';
import { createContext, useContext, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

const CloseContext = createContext<() => void>(() => undefined);

/** Closes the selector this is rendered in (for row actions that open a dialog). */
export function useCloseSelector(): () => void {
  return useContext(CloseContext);
}

export interface SelectorPopoverProps {
  /** Visible label in the button and first half of its accessible name: "Environment: staging". */
  label: string;
  icon: LucideIcon;
  /** The current value as shown (already shortened); `title` holds it whole. */
  value: ReactNode;
  title?: string;
  /** Accessible name of the current value when `value` is not plain text. */
  valueText: string;
  disabled?: boolean;
  testId?: string;
  /** The rows (SelectorOption) and anything else in the list. */
  children: ReactNode;
  /** Actions under the list ("Add environment"). */
  footer?: ReactNode;
  /** Shown above the list (loading or error). */
  status?: ReactNode;
}

const OPTION = '[data-selector-option]';

/**
 * A top-bar selector: a button showing the current value that opens a panel with one option per
 * row, each row optionally with its own actions (edit, delete). Arrow keys move between options,
 * Escape closes and gives focus back to the button.
 */
export function SelectorPopover({
  label,
  icon: Icon,
  value,
  title,
  valueText,
  disabled,
  testId,
  children,
  footer,
  status,
}: SelectorPopoverProps) {
  const [open, setOpen] = useState(false);
  const triggerRef = useRef<HTMLButtonElement>(null);
  // Focus goes back to the button before the panel goes, so a dialog opened from a row knows
  // where to return focus when it closes.
  const close = () => {
    triggerRef.current?.focus();
    setOpen(false);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp' && event.key !== 'Home' && event.key !== 'End') return;
    const options = Array.from(event.currentTarget.querySelectorAll<HTMLElement>(OPTION));
    if (options.length === 0) return;
    event.preventDefault();
    const index = options.indexOf(document.activeElement as HTMLElement);
    const next =
      event.key === 'Home'
        ? 0
        : event.key === 'End'
          ? options.length - 1
          : (index + (event.key === 'ArrowDown' ? 1 : -1) + options.length) % options.length;
    options[next]?.focus();
  };

  return (
    <Popover.Root open={open} onOpenChange={setOpen}>
      <Popover.Trigger
        ref={triggerRef}
        disabled={disabled}
        aria-label={`${label}: ${valueText}`}
        data-testid={testId}
        className="focus-ring flex h-10 max-w-64 min-w-0 items-center gap-2 rounded-lg border border-slate-200 bg-white pr-2.5 pl-3 text-sm shadow-xs hover:border-slate-300 hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-60"
      >
        <Icon aria-hidden="true" className="size-4 shrink-0 text-brand-600" />
        {/* The label is part of the button's accessible name; visually it gives way on narrow windows. */}
        <span className="hidden text-slate-500 xl:inline">{label}</span>
        <span className="truncate font-semibold text-slate-900" title={title} data-testid={testId && `${testId}-value`}>
          {value}
        </span>
        <ChevronsUpDown aria-hidden="true" className="size-4 shrink-0 text-slate-400" />
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          align="start"
          sideOffset={8}
          collisionPadding={12}
          aria-label={label}
          onKeyDown={onKeyDown}
          onOpenAutoFocus={(event) => {
            const content = event.currentTarget as HTMLElement | null;
            const current = content?.querySelector<HTMLElement>(`${OPTION}[aria-current="true"]`);
            const first = content?.querySelector<HTMLElement>(OPTION);
            if (current ?? first) {
              event.preventDefault();
              (current ?? first)?.focus();
            }
          }}
          className="z-40 flex w-80 flex-col rounded-xl border border-slate-200 bg-white p-1.5 shadow-lg ring-1 ring-black/5"
        >
          <CloseContext.Provider value={close}>
            {status}
            <ul className="max-h-72 overflow-y-auto">{children}</ul>
            {footer && <div className="mt-1 flex flex-col border-t border-slate-100 pt-1">{footer}</div>}
          </CloseContext.Provider>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}

/** One choice of a selector; choosing it closes the panel first. */
export function SelectorOption({
  selected,
  onSelect,
  children,
  title,
  actions,
}: {
  selected: boolean;
  onSelect: () => void;
  children: ReactNode;
  title?: string;
  /** Small icon buttons at the end of the row. */
  actions?: ReactNode;
}) {
  const close = useCloseSelector();
  return (
    <li className="group flex items-center gap-1 rounded-lg hover:bg-slate-50">
      <button
        type="button"
        data-selector-option
        aria-current={selected ? 'true' : undefined}
        title={title}
        onClick={() => {
          close();
          onSelect();
        }}
        className={`flex min-w-0 flex-1 items-center gap-2.5 rounded-lg px-3 py-2 text-left text-sm outline-none focus-visible:bg-slate-100 focus-visible:ring-2 focus-visible:ring-brand-500 ${
          selected ? 'font-semibold text-brand-700' : 'text-slate-700'
        }`}
      >
        <span className="min-w-0 flex-1 truncate">{children}</span>
        {selected && <Check aria-hidden="true" className="size-4 shrink-0 text-brand-600" />}
      </button>
      {actions && <span className="flex shrink-0 items-center gap-0.5 pr-1">{actions}</span>}
    </li>
  );
}

/** A footer action of a selector ("Add environment"); closes the panel, then runs. */
export function SelectorAction({
  icon: Icon,
  children,
  onSelect,
  disabledReason,
}: {
  icon: LucideIcon;
  children: ReactNode;
  onSelect: () => void;
  disabledReason?: string | null | undefined;
}) {
  const close = useCloseSelector();
  const button = (
    <button
      type="button"
      aria-disabled={disabledReason ? true : undefined}
      onClick={() => {
        if (disabledReason) return;
        close();
        onSelect();
      }}
      className="focus-ring flex items-center gap-2.5 rounded-lg px-3 py-2 text-left text-sm font-medium text-brand-700 hover:bg-brand-50 aria-disabled:cursor-not-allowed aria-disabled:text-slate-400 aria-disabled:hover:bg-transparent"
    >
      <Icon aria-hidden="true" className="size-4" />
      {children}
    </button>
  );
  return disabledReason ? <Tooltip content={disabledReason}>{button}</Tooltip> : button;
}
