import { Messages, type Project } from '@rehearse/contract';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Modal } from '../../../components/Modal';
import { Strings } from '../../../lib/strings';
import { CreateProjectForm } from './CreateProjectForm';
import { snackbar } from '../../../lib/notify';

/** The create-project modal opened from the project selector. */
export function CreateProjectDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const created = (project: Project) => {
    onOpenChange(false);
    snackbar.success(Messages.projectCreated);
    void navigate(`/${project.id}/dashboard`);
  };
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      dismissible={!busy}
      size="lg"
      title={Strings.createProjectTitle}
      description={Strings.createProjectIntro}
      testId="create-project-dialog"
    >
      {open && <CreateProjectForm onCancel={() => onOpenChange(false)} onCreated={created} onBusyChange={setBusy} />}
    </Modal>
  );
}
