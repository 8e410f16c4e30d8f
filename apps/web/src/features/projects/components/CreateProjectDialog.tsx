import { Messages, type Project } from '@rehearse/contract';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { Modal } from '../../../components/Modal';
import { Strings } from '../../../lib/strings';
import { CreateProjectForm } from './CreateProjectForm';

/** The create-project modal opened from the project selector. */
export function CreateProjectDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const created = (project: Project) => {
    onOpenChange(false);
    toast.success(Messages.projectCreated);
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
