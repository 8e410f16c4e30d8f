import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { extractTar, listTar, TarError } from './tar.js';

/** One ustar header + data, padded, the way tar writes it. */
function entry(name: string, content = '', type = '0', extra: { linkname?: string } = {}): Buffer {
  const header = Buffer.alloc(512);
  header.write(name.slice(0, 100), 0, 'utf8');
  header.write('0000644\0', 100);
  header.write('0000000\0', 108);
  header.write('0000000\0', 116);
  header.write(`${Buffer.byteLength(content).toString(8).padStart(11, '0')}\0`, 124);
  header.write('00000000000\0', 136);
  header.write(type, 156);
  if (extra.linkname) header.write(extra.linkname, 157);
  header.write('ustar\0', 257);
  header.write('00', 263);
  header.fill(' ', 148, 156);
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  const data = Buffer.alloc(Math.ceil(Buffer.byteLength(content) / 512) * 512);
  data.write(content);
  return Buffer.concat([header, data]);
}

function pax(records: Record<string, string>): Buffer {
  const body = Object.entries(records)
    .map(([key, value]) => {
      const line = ` ${key}=${value}\n`;
      let length = line.length + 1;
      while (`${length}${line}`.length !== length) length = `${length}${line}`.length;
      return `${length}${line}`;
    })
    .join('');
  return entry('PaxHeader', body, 'x');
}

const archive = (...parts: Buffer[]) => Buffer.concat([...parts, Buffer.alloc(1024)]);

describe('tar reader', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const target = () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'rehearse-tar-'));
    dirs.push(dir);
    return dir;
  };

  it('extracts files and folders, long pax names included', async () => {
    const long = `features/${'deeply-nested-folder/'.repeat(6)}checkout.feature`;
    const dir = target();
    const files = await extractTar(
      archive(
        entry('pax_global_header', '52 comment=0123456789abcdef0123456789abcdef01234567\n', 'g'),
        entry('features/', '', '5'),
        entry('features/a.feature', 'Feature: A\n'),
        pax({ path: long }),
        entry(long.slice(0, 100), 'Feature: Long\n'),
      ),
      dir,
    );
    expect(files).toBe(2);
    expect(readFileSync(path.join(dir, 'features/a.feature'), 'utf8')).toBe('Feature: A\n');
    expect(readFileSync(path.join(dir, long), 'utf8')).toBe('Feature: Long\n');
  });

  it('refuses the whole archive when an entry would leave the folder, before writing anything', async () => {
    for (const bad of ['../evil.mjs', 'features/../../evil.mjs', '/etc/evil']) {
      const dir = target();
      await expect(extractTar(archive(entry('features/ok.feature', 'ok'), entry(bad, 'x')), dir)).rejects.toThrow(TarError);
      expect(existsSync(path.join(dir, 'features/ok.feature'))).toBe(false);
    }
  });

  it('refuses links', async () => {
    await expect(listTar(archive(entry('features/step_definitions/x.mjs', '', '2', { linkname: '/etc/passwd' })))).rejects.toThrow(
      'Refusing the archive: "features/step_definitions/x.mjs" is a link or device (SymbolicLink), not a file',
    );
  });

  it('extracts an archive of nothing (only its end blocks) as no files', async () => {
    expect(await extractTar(Buffer.alloc(1024), target())).toBe(0);
  });

  it('notices a truncated archive', async () => {
    await expect(listTar(entry('a.txt', 'x'.repeat(2000)).subarray(0, 1024))).rejects.toThrow(/truncated/);
  });

  it('keeps a script executable and everything else plain', async () => {
    const dir = target();
    const script = entry('run.sh', '#!/bin/sh\n');
    script.write('0000755\0', 100);
    let sum = 0;
    script.fill(' ', 148, 156);
    for (const byte of script.subarray(0, 512)) sum += byte;
    script.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
    await extractTar(archive(script, entry('a.feature', 'Feature: A\n')), dir);
    expect(statSync(path.join(dir, 'run.sh')).mode & 0o111).not.toBe(0);
    expect(statSync(path.join(dir, 'a.feature')).mode & 0o111).toBe(0);
  });
});
