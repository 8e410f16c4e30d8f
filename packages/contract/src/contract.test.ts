import { describe, expect, it } from 'vitest';
import { authCalls } from './auth.calls.js';
import { buildPath } from './call.js';
import { licenceDaysLeft } from './constants.js';
import { roleAllows } from './permissions.js';
import { isHttpUrl, ProjectName } from './validation.js';

describe('contract rules', () => {
  it('accepts only absolute http and https URLs for projects', () => {
    expect(isHttpUrl('https://shop.example.com/path')).toBe(true);
    expect(isHttpUrl('http://localhost:4000')).toBe(true);
    for (const bad of ['ftp://x.y', 'shop.example.com', 'javascript:alert(1)', 'http://', '']) {
      expect([bad, isHttpUrl(bad)]).toEqual([bad, false]);
    }
  });

  it('trims project names and gives the spec messages', () => {
    expect(ProjectName.parse('  Shop  ')).toBe('Shop');
    expect(ProjectName.safeParse('   ').error?.issues[0]?.message).toBe('Name cannot be empty');
    expect(ProjectName.safeParse(undefined).error?.issues[0]?.message).toBe('Name cannot be empty');
  });

  it('counts whole licence days left and never below zero', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    expect(licenceDaysLeft(new Date('2026-01-15T00:00:00Z'), now)).toBe(14);
    expect(licenceDaysLeft(new Date('2026-01-14T23:59:00Z'), now)).toBe(13);
    expect(licenceDaysLeft(new Date('2025-12-01T00:00:00Z'), now)).toBe(0);
  });

  it('lets only admins invite, remove members and delete projects', () => {
    expect(roleAllows('ADMIN', 'sendInvitation')).toBe(true);
    expect(roleAllows('MEMBER', 'sendInvitation')).toBe(false);
    expect(roleAllows('MEMBER', 'deleteProject')).toBe(false);
    expect(roleAllows('MEMBER', 'createAccessKey')).toBe(true);
  });

  it('fills and encodes path parameters, and refuses a missing one', () => {
    expect(buildPath(authCalls.declineInvitation.path, { id: 'a/b' })).toBe('/api/auth/invitations/a%2Fb');
    expect(() => buildPath(authCalls.declineInvitation.path, {})).toThrow('Missing path parameter "id"');
  });

  it('gives every project call an example that names its project', () => {
    for (const call of Object.values(authCalls)) {
      if (call.access !== 'project') continue;
      expect([call.path, call.project && call.example]).toEqual([call.path, expect.anything()]);
    }
  });
});
