import type { RecordedCommand } from '@rehearse/contract';

/** A recorded step as a person reads it in a recorder's step list (secrets shown as dots). */
export function describeStep(command: RecordedCommand): string {
  const name = command.element?.name ?? '';
  switch (command.type) {
    case 'navigate':
      return `Open ${command.value ?? ''}`;
    case 'click':
      return `Click “${name}”`;
    case 'fill':
      return `Fill “${name}” with ${command.secret ? '••••' : `“${command.value ?? ''}”`}`;
    case 'select':
      return `Select “${command.value ?? ''}” in “${name}”`;
    case 'check':
      return `Check “${name}”`;
    case 'uncheck':
      return `Uncheck “${name}”`;
    case 'press':
      return `Press ${command.value ?? ''}${name ? ` in “${name}”` : ''}`;
    case 'verifyText':
      return `See “${command.value ?? ''}”`;
    case 'verifyVisible':
      return `“${name}” is visible`;
    case 'verifyValue':
      return `“${name}” has value “${command.value ?? ''}”`;
  }
}
