import { describe, expect, it } from 'vitest';
import { DOCS, resolveDocLink } from './catalogue';
import { headingId, parseInline, parseMarkdown, plainText, type Block } from './markdown';

describe('the documentation reader', () => {
  it('reads headings with GitHub anchors, paragraphs joined, and a rule', () => {
    expect(parseMarkdown('# Deploying Rehearse\n\nOne process\nserves all.\n\n---\n## Plain cucumber-js')).toEqual([
      {
        kind: 'heading',
        level: 1,
        id: 'deploying-rehearse',
        text: 'Deploying Rehearse',
        content: [{ kind: 'text', text: 'Deploying Rehearse' }],
      },
      { kind: 'paragraph', content: [{ kind: 'text', text: 'One process serves all.' }] },
      { kind: 'rule' },
      {
        kind: 'heading',
        level: 2,
        id: 'plain-cucumber-js',
        text: 'Plain cucumber-js',
        content: [{ kind: 'text', text: 'Plain cucumber-js' }],
      },
    ]);
    expect(headingId('`rehearse.config.json`')).toBe('rehearseconfigjson');
  });

  it('reads inline code, bold, italic, links and escapes; a tag stays text', () => {
    expect(parseInline('Run `npx rehearse` **now**, *then* see [the CLI](#cli) \\| <script>x</script>')).toEqual([
      { kind: 'text', text: 'Run ' },
      { kind: 'code', text: 'npx rehearse' },
      { kind: 'text', text: ' ' },
      { kind: 'strong', children: [{ kind: 'text', text: 'now' }] },
      { kind: 'text', text: ', ' },
      { kind: 'em', children: [{ kind: 'text', text: 'then' }] },
      { kind: 'text', text: ' see ' },
      { kind: 'link', href: '#cli', children: [{ kind: 'text', text: 'the CLI' }] },
      { kind: 'text', text: ' | <script>x</script>' },
    ]);
    // Snake case is no emphasis.
    expect(plainText(parseInline('__meta_kubernetes_pod and 2 * 3 * 4'))).toBe('__meta_kubernetes_pod and 2 * 3 * 4');
  });

  it('reads fenced code as it is, tables with escaped pipes, and nested lists with their continuation lines', () => {
    const blocks = parseMarkdown(
      [
        '```bash',
        'npx rehearse run \\',
        '    --headless',
        '```',
        '| import | what |',
        '| --- | --- |',
        '| `a \\| b` | one |',
        '- first item',
        '  goes on here',
        '  - nested',
        '- second',
        '1. one',
        '2. two',
      ].join('\n'),
    );
    expect(blocks.map((block) => block.kind)).toEqual(['code', 'table', 'list', 'list']);
    expect(blocks[0]).toEqual({ kind: 'code', language: 'bash', text: 'npx rehearse run \\\n    --headless' });
    const table = blocks[1] as Extract<Block, { kind: 'table' }>;
    expect(table.rows[0]!.map(plainText)).toEqual(['a | b', 'one']);
    const list = blocks[2] as Extract<Block, { kind: 'list' }>;
    expect(list.ordered).toBe(false);
    expect(list.items.map((item) => plainText(item.content))).toEqual(['first item goes on here', 'second']);
    expect(list.items[0]!.children).toEqual([
      { kind: 'list', ordered: false, items: [{ content: [{ kind: 'text', text: 'nested' }], children: [] }] },
    ]);
    expect((blocks[3] as Extract<Block, { kind: 'list' }>).ordered).toBe(true);
  });

  it('reads every served document without losing a line of code', () => {
    expect(DOCS.map((doc) => doc.file)).toEqual(['packages/runner/README.md', 'docs/deploy.md', 'docs/security.md']);
    for (const { file, source } of DOCS) {
      expect(source.length, file).toBeGreaterThan(1000);
      const blocks = parseMarkdown(source);
      const codeLines = (list: Block[]): number =>
        list.reduce(
          (sum, block) =>
            sum +
            (block.kind === 'code'
              ? block.text.split('\n').length
              : block.kind === 'list'
                ? block.items.reduce((n, item) => n + codeLines(item.children), 0)
                : block.kind === 'quote'
                  ? codeLines(block.blocks)
                  : 0),
          0,
        );
      const fenced = source.split(/^\s*```.*$/m).filter((_: string, index: number) => index % 2 === 1);
      expect(codeLines(blocks), file).toBe(
        fenced.reduce((sum: number, body: string) => sum + body.replace(/^\n|\n$/g, '').split('\n').length, 0),
      );
      const outsideCode = source.replace(/^\s*```[\s\S]*?^\s*```/gm, '');
      expect(blocks.filter((block) => block.kind === 'heading').length, file).toBe(outsideCode.match(/^#{1,6} /gm)!.length);
    }
  });

  it('follows links to served documents and sections, opens outside ones in a new tab, and drops the rest', () => {
    expect(resolveDocLink('#plain-cucumber-js')).toEqual({ kind: 'anchor', href: '#plain-cucumber-js' });
    expect(resolveDocLink('security.md#egress-rules')).toEqual({ kind: 'doc', to: '/docs/security#egress-rules' });
    expect(resolveDocLink('../../docs/deploy.md')).toEqual({ kind: 'doc', to: '/docs/deploy' });
    expect(resolveDocLink('https://example.com/x')).toEqual({ kind: 'external', href: 'https://example.com/x' });
    // A file this server does not serve, and a script, are no links at all.
    expect(resolveDocLink('../shared/DESIGN.md')).toBeNull();
    expect(resolveDocLink('javascript:alert(1)')).toBeNull();
  });
});
