import { Fragment } from 'react';

/**
 * Shell or YAML text laid out for reading: each word its own inline box, so lines break between
 * words and never after a hyphen inside `--package` or a file name, while a word longer than the
 * line (a URL on a narrow screen) still wraps. Line breaks and indentation are kept; the text
 * copies exactly as given. Put it in an element with `white-space: pre-wrap`.
 */
export function ShellText({ text }: { text: string }) {
  return text.split('\n').map((line, lineIndex) => (
    <Fragment key={lineIndex}>
      {lineIndex > 0 && '\n'}
      {line.split(' ').map((word, index) => (
        <Fragment key={index}>
          {index > 0 && ' '}
          {word && <span className="inline-block max-w-full [overflow-wrap:anywhere]">{word}</span>}
        </Fragment>
      ))}
    </Fragment>
  ));
}
