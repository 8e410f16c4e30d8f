import type { Project } from '@rehearse/contract';
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { ContactSalesDialog } from './components/ContactSalesDialog';
import { LicenceDialog } from './components/LicenceDialog';

interface LicenceContextValue {
  /** Opens the licence modal. */
  openLicence: () => void;
  /** Opens the contact-sales form. */
  openContactSales: () => void;
  /**
   * Spec 01 §4: an expired project blocks adding environments, recording and edits; the licence
   * modal opens instead. Runs `action` when the licence is active, else opens the modal.
   */
  guard: (action: () => void) => void;
  expired: boolean;
}

const LicenceContext = createContext<LicenceContextValue | null>(null);

/**
 * Holds the licence and contact-sales dialogs of the current project. It wraps the project shell
 * before the project is known too (`undefined`: no dialogs, nothing expired), so the shell below is
 * not remounted, losing an open menu, when the project list arrives.
 */
export function LicenceProvider({ project, children }: { project: Project | undefined; children: ReactNode }) {
  const [licenceOpen, setLicenceOpen] = useState(false);
  const [salesOpen, setSalesOpen] = useState(false);
  const expired = project?.is_expired ?? false;

  const openLicence = useCallback(() => setLicenceOpen(true), []);
  const openContactSales = useCallback(() => setSalesOpen(true), []);
  const guard = useCallback(
    (action: () => void) => {
      if (expired) setLicenceOpen(true);
      else action();
    },
    [expired],
  );
  const value = useMemo(() => ({ openLicence, openContactSales, guard, expired }), [openLicence, openContactSales, guard, expired]);

  return (
    <LicenceContext.Provider value={value}>
      {children}
      {project && (
        <>
          <LicenceDialog
            open={licenceOpen}
            onOpenChange={setLicenceOpen}
            project={project}
            onContactSales={() => {
              setLicenceOpen(false);
              setSalesOpen(true);
            }}
          />
          <ContactSalesDialog open={salesOpen} onOpenChange={setSalesOpen} project={project} />
        </>
      )}
    </LicenceContext.Provider>
  );
}

/** The licence actions of the current project. */
export function useLicence(): LicenceContextValue {
  const value = useContext(LicenceContext);
  if (!value) throw new Error('useLicence needs a LicenceProvider (the project layout)');
  return value;
}
