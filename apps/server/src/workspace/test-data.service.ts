import { MASKED_SECRET, Messages, normalizeTotpSecret, TestDataType, type TestDataRow } from '@rehearse/contract';
import type { ProjectSecretsRepo } from '../crypto/project-secrets.repo.js';
import type { ActivityService } from '../storage/activity.service.js';
import { decryptSecret, encryptSecret } from '../crypto/secrets.js';
import { badRequest, notFound } from '../http/errors.js';
import { isValidTotpSecret, totpCode } from '../mail/totp.js';
import { Lru } from './lru.js';
import type { Workspace, WorkspaceService } from './workspace.service.js';
import type { Snapshot } from './workspace.store.js';

export const TEST_DATA_PATH = 'data/data.json';
const STORED_SECRET_PREFIX = 'secret:';

interface StoredRow {
  key: string;
  value: string;
  DataType: 'string' | 'secret' | 'totp';
}
type StoredData = Record<string, StoredRow[]>;

export interface IncomingRow {
  key?: string | undefined;
  value?: string | undefined;
  DataType?: string | undefined;
  environment?: string | undefined;
}

const isEncrypted = (row: StoredRow) => row.DataType !== 'string';

/**
 * Test data in data/data.json: `{ "<env>" | "*": [ {key, value, DataType} ] }`. secret and totp
 * values are encrypted with the project's data key; the web app only ever sees them masked.
 */
export class TestDataService {
  /**
   * data/data.json parsed, by its blob id: an execution asks for it once per scenario, and the
   * test data page on every visit, while most commits change other files.
   */
  private readonly storedByBlob = new Lru<string, StoredData>(256);

  constructor(
    private readonly workspaces: WorkspaceService,
    private readonly secrets: ProjectSecretsRepo,
    private readonly activity: Pick<ActivityService, 'audit'>,
  ) {}

  async list(ws: Workspace): Promise<TestDataRow[]> {
    return toRows(await this.stored(await this.workspaces.read(ws)), (row) => (isEncrypted(row) ? MASKED_SECRET : row.value));
  }

  /** data/data.json of a commit, parsed once per version of the file (callers only read it). */
  private async stored(snapshot: Snapshot): Promise<StoredData> {
    const blob = await snapshot.oidAt(TEST_DATA_PATH);
    if (!blob) return readStored(snapshot);
    let stored = this.storedByBlob.get(blob);
    if (!stored) {
      stored = await readStored(snapshot);
      this.storedByBlob.set(blob, stored);
    }
    return stored;
  }

  /** Replaces all rows. Incomplete rows are dropped; a masked value keeps the stored secret. */
  async change(ws: Workspace, incoming: IncomingRow[]): Promise<{ testData: TestDataRow[]; dropped: number }> {
    const key = await this.secrets.dataKey(ws.projectId);
    const result = await this.workspaces.write(ws, async (snapshot) => {
      const previous = await this.stored(snapshot);
      const next = Object.create(null) as StoredData;
      let dropped = 0;
      const seen = new Set<string>();
      for (const row of incoming) {
        const rowKey = row.key?.trim();
        const environment = row.environment?.trim();
        if (!rowKey || !environment || row.value === undefined || row.value === '' || !row.DataType) {
          dropped += 1;
          continue;
        }
        const type = TestDataType.safeParse(row.DataType);
        if (!type.success) throw badRequest(Messages.testDataTypeInvalid);
        const identity = `${environment}\u0000${rowKey}`;
        if (seen.has(identity)) throw badRequest(Messages.testDataKeyTaken);
        seen.add(identity);
        (next[environment] ??= []).push({
          key: rowKey,
          DataType: type.data,
          value: this.storedValue(
            type.data,
            row.value,
            previous[environment]?.find((p) => p.key === rowKey),
            key,
          ),
        });
      }
      const count = Object.values(next).reduce((sum, rows) => sum + rows.length, 0);
      return {
        changes: [{ path: TEST_DATA_PATH, content: `${JSON.stringify(next, null, 2)}\n` }],
        message: `[app:testdata.change] ${count} row(s)`,
        result: { dropped },
      };
    });
    return { testData: await this.list(ws), dropped: result.dropped };
  }

  /** The current code of a totp row. */
  async totp(ws: Workspace, rowKey: string, environment: string): Promise<{ code: string; secondsLeft: number }> {
    const stored = await this.stored(await this.workspaces.read(ws));
    const row = stored[environment]?.find((candidate) => candidate.key === rowKey);
    if (!row) throw notFound(Messages.testDataRowNotFound);
    if (row.DataType !== 'totp') throw badRequest(Messages.testDataNotTotp);
    return totpCode(decryptSecret(row.value.slice(STORED_SECRET_PREFIX.length), await this.secrets.dataKey(ws.projectId)));
  }

  /**
   * A stored row's plain value, for the project admin (the route checks the role). The reveal is
   * audited before the value leaves: a value nobody can trace having read is never answered.
   */
  async reveal(ws: Workspace, userId: string, rowKey: string, environment: string): Promise<string> {
    const stored = await this.stored(await this.workspaces.read(ws));
    const row = stored[environment]?.find((candidate) => candidate.key === rowKey);
    if (!row) throw notFound(Messages.testDataRowNotFound);
    if (!isEncrypted(row)) return row.value;
    const value = decryptSecret(row.value.slice(STORED_SECRET_PREFIX.length), await this.secrets.dataKey(ws.projectId));
    await this.activity.audit(userId, 'testData.revealed', `${environment}/${rowKey}`, {
      projectId: ws.projectId,
      environment,
      key: rowKey,
      branch: ws.branch,
    });
    return value;
  }

  /**
   * Plain values for a run in `environment` (DESIGN §11 merge order: "*" first, then the
   * environment's own rows). Only the runner gets these, when it resolves a step.
   */
  async resolveForRun(ws: Workspace, snapshot: Snapshot, environment: string): Promise<{ key: string; value: string; DataType: string }[]> {
    const stored = await this.stored(snapshot);
    const dataKey = await this.secrets.dataKey(ws.projectId);
    const merged = new Map<string, StoredRow>();
    for (const row of [...(stored['*'] ?? []), ...(stored[environment] ?? [])]) merged.set(row.key, row);
    return [...merged.values()].map((row) => ({
      key: row.key,
      DataType: row.DataType,
      value: isEncrypted(row) ? decryptSecret(row.value.slice(STORED_SECRET_PREFIX.length), dataKey) : row.value,
    }));
  }

  /** Every plain secret and totp value of the workspace, all environments: what uploaded reports must never show. */
  async secretValues(ws: Workspace): Promise<string[]> {
    const stored = await readStored(await this.workspaces.read(ws));
    const rows = Object.values(stored).flat().filter(isEncrypted);
    if (rows.length === 0) return [];
    const dataKey = await this.secrets.dataKey(ws.projectId);
    return rows.map((row) => decryptSecret(row.value.slice(STORED_SECRET_PREFIX.length), dataKey));
  }

  private storedValue(type: StoredRow['DataType'], value: string, previous: StoredRow | undefined, dataKey: Buffer): string {
    if (type === 'string') return value;
    if (value === MASKED_SECRET) {
      if (previous && previous.DataType === type) return previous.value;
      throw badRequest(Messages.testDataRowNotFound);
    }
    if (type === 'totp') {
      if (!isValidTotpSecret(value)) throw badRequest(Messages.totpSecretInvalid);
      return STORED_SECRET_PREFIX + encryptSecret(normalizeTotpSecret(value), dataKey);
    }
    return STORED_SECRET_PREFIX + encryptSecret(value, dataKey);
  }
}

async function readStored(snapshot: Snapshot): Promise<StoredData> {
  const data = await snapshot.readJson<unknown>(TEST_DATA_PATH);
  if (!data || typeof data !== 'object' || Array.isArray(data)) return {};
  // No prototype: an environment named like an Object member ("constructor") finds no rows.
  const result = Object.create(null) as StoredData;
  for (const [environment, rows] of Object.entries(data as Record<string, unknown>)) {
    if (!Array.isArray(rows)) continue;
    result[environment] = rows.filter(
      (row): row is StoredRow =>
        !!row &&
        typeof row === 'object' &&
        typeof (row as StoredRow).key === 'string' &&
        typeof (row as StoredRow).value === 'string' &&
        TestDataType.safeParse((row as StoredRow).DataType).success,
    );
  }
  return result;
}

function toRows(data: StoredData, show: (row: StoredRow) => string): TestDataRow[] {
  return Object.entries(data).flatMap(([environment, rows]) =>
    rows.map((row) => ({ key: row.key, value: show(row), DataType: row.DataType, environment })),
  );
}
