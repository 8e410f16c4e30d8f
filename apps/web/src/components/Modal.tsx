import * as Dialog from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import { useLayoutEffect, useRef, type ReactNode } from 'react';
import { Strings } from '../lib/strings';

export interface ModalProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  /** One sentence under the title; also the dialog's accessible description. */
  description?: ReactNode;
  children?: ReactNode;
  /** Buttons at the bottom, right-aligned. */
  footer?: ReactNode;
  /**
   * False while the dialog must stay open (a delete in progress): Escape, a click outside and
   * the close button do nothing.
   */
  dismissible?: boolean;
  size?: 'sm' | 'md' | 'lg' | 'xl';
  /** role="alertdialog" for confirmations. */
  alert?: boolean;
  testId?: string;
  /** Where focus goes on open; by default the first focusable element. */
  onOpenAutoFocus?: (event: Event) => void;
}

/** xl is for code: the step code editor and its side-by-side diff. */
const widths = { sm: 'w-[26rem]', md: 'w-[32rem]', lg: 'w-[40rem]', xl: 'w-[72rem]' } as const;

/**
 * The app's dialog (Radix): traps focus, closes on Escape and on a click outside, gives focus
 * back to what opened it. It hangs from a fixed top edge rather than being centred, so a
 * validation message appearing in it never moves the fields under the user's pointer.
 */
export function Modal({
  open,
  onOpenChange,
  title,
  description,
  children,
  footer,
  dismissible = true,
  size = 'md',
  alert = false,
  testId,
  onOpenAutoFocus,
}: ModalProps) {
  const block = (event: Event) => {
    if (!dismissible) event.preventDefault();
  };
  const returnTo = useRef<HTMLElement | null>(null);

  // Remember what had focus when the dialog opened, to give it back on close. A dialog opened
  // from a row of a selector panel gives focus back to the selector's button, since the panel
  // (and the row) are gone by then.
  useLayoutEffect(() => {
    if (!open) return;
    const active = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const panel = active?.closest<HTMLElement>('[data-radix-popper-content-wrapper] [id]');
    const opener = panel ? document.querySelector<HTMLElement>(`[aria-controls="${CSS.escape(panel.id)}"]`) : null;
    returnTo.current = opener ?? active;
  }, [open]);
  return (
    <Dialog.Root open={open} onOpenChange={(next) => (dismissible || next ? onOpenChange(next) : undefined)}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-900/55 backdrop-blur-[2px] data-[state=open]:animate-[fade-in_150ms_ease-out]" />
        <Dialog.Content
          role={alert ? 'alertdialog' : 'dialog'}
          data-testid={testId}
          onEscapeKeyDown={block}
          onPointerDownOutside={block}
          onInteractOutside={block}
          onOpenAutoFocus={onOpenAutoFocus}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            if (returnTo.current?.isConnected) returnTo.current.focus();
          }}
          {...(description ? {} : { 'aria-describedby': undefined })}
          className={`fixed top-[max(1rem,10vh)] left-1/2 z-50 flex max-h-[calc(100vh-max(2rem,20vh))] max-w-[calc(100vw-2rem)] -translate-x-1/2 flex-col rounded-2xl bg-white shadow-2xl outline-none data-[state=open]:animate-[dialog-in_160ms_ease-out] ${widths[size]}`}
        >
          <div className="flex items-start justify-between gap-4 px-6 pt-5 pb-1">
            <div className="min-w-0">
              <Dialog.Title className="text-lg font-semibold text-slate-900">{title}</Dialog.Title>
              {description && <Dialog.Description className="mt-1 text-sm text-slate-600">{description}</Dialog.Description>}
            </div>
            <Dialog.Close
              aria-label={Strings.close}
              disabled={!dismissible}
              className="focus-ring -mr-2 flex size-8 shrink-0 items-center justify-center rounded-lg text-slate-500 hover:bg-slate-100 hover:text-slate-800 disabled:cursor-not-allowed disabled:opacity-40"
            >
              <X aria-hidden="true" className="size-4" />
            </Dialog.Close>
          </div>
          {children && <div className="min-h-0 overflow-y-auto px-6 py-4">{children}</div>}
          {footer && (
            // Wraps rather than overflows: three long labels in a small dialog would otherwise hang
            // out of its left edge over the dimmed page (unreadable, and axe says so).
            <div className="flex flex-wrap items-center justify-end gap-3 rounded-b-2xl border-t border-slate-100 bg-slate-50/70 px-6 py-4">
              {footer}
            </div>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
