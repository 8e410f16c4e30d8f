import * as RadixTooltip from '@radix-ui/react-tooltip';
import type { ReactElement, ReactNode } from 'react';

/** Spec 01 §9: tooltips open after 800 ms. */
export const TOOLTIP_DELAY_MS = 800;

/** Goes once around the app so every tooltip shares the delay. */
export function TooltipProvider({ children }: { children: ReactNode }) {
  return <RadixTooltip.Provider delayDuration={TOOLTIP_DELAY_MS}>{children}</RadixTooltip.Provider>;
}

export interface TooltipProps {
  /** The text; when empty the child is rendered without a tooltip. */
  content: ReactNode;
  /** One focusable element (a button, a link) that the tooltip describes. */
  children: ReactElement;
  side?: 'top' | 'right' | 'bottom' | 'left';
}

/** A text bubble on hover and keyboard focus. */
export function Tooltip({ content, children, side = 'top' }: TooltipProps) {
  if (!content) return children;
  return (
    <RadixTooltip.Root>
      <RadixTooltip.Trigger asChild>{children}</RadixTooltip.Trigger>
      <RadixTooltip.Portal>
        <RadixTooltip.Content
          side={side}
          sideOffset={6}
          collisionPadding={8}
          className="z-[60] max-w-xs rounded-lg bg-slate-900 px-3 py-2 text-xs leading-snug text-white shadow-lg"
        >
          {content}
          <RadixTooltip.Arrow className="fill-slate-900" />
        </RadixTooltip.Content>
      </RadixTooltip.Portal>
    </RadixTooltip.Root>
  );
}
