import { ARTIFACT_REFERENCE } from '@rehearse/contract';

/** How cucumber's message formatter writes an attachment: one envelope per line, this key first. */
const ATTACHMENT_LINE = '{"attachment":';
/** A screenshot's attachment is named after its id (`RehearseWorld.screenshot`). */
const SCREENSHOT_FILE = /^([0-9a-f]{64})\.png$/;

interface Attachment {
  body: string;
  mediaType: string;
  fileName?: string;
  url?: string;
}

/**
 * Cucumber messages (NDJSON) as the server keeps them: each screenshot attachment whose screenshot
 * is stored (`storedIds`: local id → the server's id) loses its body for a reference to that
 * artifact (`ARTIFACT_REFERENCE`), which the server resolves when it renders the HTML report.
 * Every other line is kept as written.
 */
export function screenshotsByReference(messages: Buffer, storedIds: ReadonlyMap<string, string>): Buffer {
  const lines = messages.toString('utf8').split('\n');
  return Buffer.from(
    lines
      .map((line) => {
        if (!line.startsWith(ATTACHMENT_LINE)) return line;
        const attachment = attachmentOf(line);
        if (!attachment) return line;
        const id = SCREENSHOT_FILE.exec(attachment.fileName ?? '')?.[1];
        const stored = id && attachment.mediaType === 'image/png' ? storedIds.get(id) : undefined;
        return stored ? JSON.stringify({ attachment: { ...attachment, body: '', url: `${ARTIFACT_REFERENCE}${stored}` } }) : line;
      })
      .join('\n'),
  );
}

/** The attachment of one line, or undefined when the line is not one (a formatter's own output may be anything). */
function attachmentOf(line: string): Attachment | undefined {
  try {
    const { attachment } = JSON.parse(line) as { attachment?: Attachment };
    return attachment && typeof attachment === 'object' ? attachment : undefined;
  } catch {
    return undefined;
  }
}
