import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ScaledObject } from '@kubernetes-models/keda/keda.sh/v1alpha1/ScaledObject';
import { Ajv } from 'ajv';
import { Namespace } from 'kubernetes-models/v1/Namespace';
import { PersistentVolumeClaim } from 'kubernetes-models/v1/PersistentVolumeClaim';
import { Secret } from 'kubernetes-models/v1/Secret';
import { Service } from 'kubernetes-models/v1/Service';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { parseSettings } from '../env.js';

const DIR = fileURLToPath(new URL('../../../../deploy/kubernetes/', import.meta.url));

/**
 * Validators generated (by ajv) from the official Kubernetes OpenAPI definitions and KEDA's CRD
 * schema, as the kubernetes-models packages ship them: `validate()` throws on a missing required
 * field or a wrong type, as the API server's schema check would.
 */
const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'v1/Namespace': Namespace,
  'v1/Service': Service,
  'v1/Secret': Secret,
  'v1/PersistentVolumeClaim': PersistentVolumeClaim,
  'apps/v1/Deployment': Deployment,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
  'keda.sh/v1alpha1/ScaledObject': ScaledObject,
};

/** What `kustomize build` needs of our kustomization.yaml, strictly (an unknown key is a typo). */
const KUSTOMIZATION_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['apiVersion', 'kind', 'namespace', 'resources'],
  properties: {
    apiVersion: { const: 'kustomize.config.k8s.io/v1beta1' },
    kind: { const: 'Kustomization' },
    namespace: { type: 'string', pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$' },
    labels: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['pairs'],
        properties: { pairs: { type: 'object', additionalProperties: { type: 'string' } }, includeSelectors: { type: 'boolean' } },
      },
    },
    resources: { type: 'array', minItems: 1, items: { type: 'string', pattern: '^[\\w.-]+\\.yaml$' } },
    images: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['name'],
        properties: { name: { type: 'string' }, newName: { type: 'string' }, newTag: { type: 'string' } },
      },
    },
  },
} as const;

interface Kustomization {
  namespace: string;
  labels?: Array<{ pairs: Record<string, string> }>;
  resources: string[];
  images?: Array<{ name: string; newName?: string; newTag?: string }>;
}

type Manifest = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  spec?: never;
} & Record<string, unknown>;

function readYaml(file: string): Manifest[] {
  const documents = parseAllDocuments(readFileSync(path.join(DIR, file), 'utf8'));
  return [documents].flat().map((document) => {
    if (document.errors.length > 0) throw new Error(`${file}: ${document.errors[0]!.message}`);
    return document.toJS() as Manifest;
  });
}

const kustomization = readYaml('kustomization.yaml')[0] as unknown as Kustomization;
/** The resources as `kubectl apply -k` sends them: namespace and labels added. */
const manifests: Manifest[] = kustomization.resources.flatMap((file) =>
  readYaml(file).map((manifest) => {
    const labels = Object.assign({}, ...(kustomization.labels ?? []).map((entry) => entry.pairs)) as Record<string, string>;
    const built = structuredClone(manifest);
    built.metadata.labels = { ...built.metadata.labels, ...labels };
    if (built.kind !== 'Namespace') built.metadata.namespace = kustomization.namespace;
    return built;
  }),
);
const secretExample = readYaml('secret.example.yaml');

function byKind<T = Manifest>(kind: string, name: string): T {
  const found = manifests.find((manifest) => manifest.kind === kind && manifest.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name}`);
  return found as T;
}

interface Container {
  name: string;
  image: string;
  command?: string[];
  ports?: Array<{ name: string; containerPort: number }>;
  env?: Array<{ name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }>;
  readinessProbe?: { httpGet?: { path: string; port: string | number } };
  livenessProbe?: { httpGet?: { path: string; port: string | number }; tcpSocket?: { port: string | number } };
}
interface DeploymentShape {
  metadata: { name: string };
  spec: {
    selector: { matchLabels: Record<string, string> };
    template: { metadata: { labels: Record<string, string> }; spec: { containers: Container[]; hostUsers?: boolean } };
  };
}
interface SecurityContextShape {
  procMount?: string;
  allowPrivilegeEscalation?: boolean;
  capabilities?: { add?: string[]; drop?: string[] };
  seccompProfile?: { type: string; localhostProfile?: string };
  appArmorProfile?: { type: string };
}

const deployment = (name: string) => byKind<DeploymentShape>('Deployment', name);
const container = (name: string) => deployment(name).spec.template.spec.containers[0]!;
const envOf = (name: string) => Object.fromEntries((container(name).env ?? []).map((entry) => [entry.name, entry]));

describe('deploy/kubernetes', () => {
  it('has a kustomization that lists every manifest of the folder, and passes its strict schema', () => {
    const validate = new Ajv({ allErrors: true, strict: true }).compile(KUSTOMIZATION_SCHEMA);
    expect(validate(kustomization), JSON.stringify(validate.errors)).toBe(true);
    const files = readdirSync(DIR).filter(
      (file) => file.endsWith('.yaml') && file !== 'kustomization.yaml' && file !== 'secret.example.yaml',
    );
    expect([...kustomization.resources].sort()).toEqual(files.sort());
    for (const file of kustomization.resources) expect(existsSync(path.join(DIR, file)), file).toBe(true);
  });

  it('validates every manifest (and the example Secret) against the Kubernetes and KEDA schemas', () => {
    for (const manifest of [...manifests, ...secretExample]) {
      const Model = MODELS[`${manifest.apiVersion}/${manifest.kind}`];
      expect(Model, `${manifest.apiVersion} ${manifest.kind} has a schema here`).toBeDefined();
      expect(() => new Model!(manifest as never).validate(), `${manifest.kind} ${manifest.metadata.name}`).not.toThrow();
    }
    expect(new Set(manifests.map((manifest) => manifest.kind))).toEqual(
      new Set(['Namespace', 'Service', 'PersistentVolumeClaim', 'Deployment', 'ScaledObject', 'NetworkPolicy']),
    );
  });

  it('uses validators that refuse a broken manifest (so the check above can fail)', () => {
    const api = structuredClone(deployment('rehearse-api')) as unknown as Record<string, Record<string, unknown>>;
    api.spec!.replicas = 'two';
    expect(() => new Deployment(api as never).validate()).toThrow(/replicas must be integer/);
    const scaled = structuredClone(byKind<Record<string, Record<string, unknown>>>('ScaledObject', 'rehearse-worker'));
    delete scaled.spec!.scaleTargetRef;
    expect(() => new ScaledObject(scaled as never).validate()).toThrow(/scaleTargetRef/);
  });

  it('runs the API with readiness and liveness on /api/health, and each Service selects its pods', () => {
    const api = container('rehearse-api');
    const httpPort = api.ports?.find((port) => port.name === 'http');
    expect(httpPort?.containerPort).toBe(Number(envOf('rehearse-api').PORT?.value));
    expect(api.readinessProbe?.httpGet).toEqual({ path: '/api/health', port: 'http' });
    expect(api.livenessProbe?.httpGet).toEqual({ path: '/api/health', port: 'http' });
    for (const service of manifests.filter((manifest) => manifest.kind === 'Service' && manifest.metadata.name !== 'postgres')) {
      const { selector } = service.spec as unknown as { selector: Record<string, string> };
      const target = manifests.find(
        (manifest) =>
          manifest.kind === 'Deployment' &&
          Object.entries(selector).every(
            ([key, value]) => (manifest as unknown as DeploymentShape).spec.template.metadata.labels[key] === value,
          ),
      );
      expect(target, `Service ${service.metadata.name} selects a Deployment`).toBeDefined();
    }
    for (const name of ['rehearse-api', 'rehearse-scheduler', 'rehearse-worker']) {
      const { spec } = deployment(name);
      expect(
        Object.entries(spec.selector.matchLabels).every(([key, value]) => spec.template.metadata.labels[key] === value),
        name,
      ).toBe(true);
    }
  });

  it('gives the API and scheduler settings the server accepts, each its roles, and PostgreSQL from the Secret', () => {
    const secretKeys = Object.keys((secretExample[0] as unknown as { stringData: Record<string, string> }).stringData);
    for (const [name, roles] of [
      ['rehearse-api', ['api']],
      ['rehearse-scheduler', ['scheduler', 'workers']],
    ] as const) {
      const env = envOf(name);
      for (const entry of Object.values(env)) {
        if (entry.valueFrom)
          expect(
            entry.valueFrom.secretKeyRef?.name === 'rehearse' && secretKeys.includes(entry.valueFrom.secretKeyRef.key),
            `${name} ${entry.name}`,
          ).toBe(true);
      }
      // Secret values as the example Secret has them; literal values as written.
      const values = Object.fromEntries(
        Object.values(env).map((entry) => [
          entry.name,
          entry.value ??
            (secretExample[0] as unknown as { stringData: Record<string, string> }).stringData[entry.valueFrom!.secretKeyRef!.key],
        ]),
      );
      const settings = parseSettings({ ...values, REHEARSE_SECRET_KEY: undefined });
      expect(settings.REHEARSE_ROLES).toEqual(roles);
      expect(settings.DATABASE_URL).toMatch(/@postgres\.rehearse\.svc:5432\//);
      expect(settings.METRICS_PORT).toBe(9464);
      expect(env.DATABASE_URL?.valueFrom?.secretKeyRef).toEqual({ name: 'rehearse', key: 'DATABASE_URL' });
    }
    const postgres = byKind<{ spec: { type: string; externalName: string } }>('Service', 'postgres');
    expect(postgres.spec.type).toBe('ExternalName');
  });

  it('scales `rehearse worker` pods with KEDA on the execution queue depth of /metrics', () => {
    const worker = container('rehearse-worker');
    expect(worker.command?.slice(1, 3)).toEqual(['packages/cli/bin/rehearse.mjs', 'worker']);
    expect(worker.env?.find((entry) => entry.name === 'REHEARSE_WORKER_TOKEN')?.valueFrom?.secretKeyRef).toEqual({
      name: 'rehearse',
      key: 'REHEARSE_WORKER_TOKEN',
    });
    const threads = Number(worker.command?.[worker.command.indexOf('--threads') + 1]);
    const scaled = byKind<{
      spec: {
        scaleTargetRef: { kind: string; name: string };
        triggers: Array<{ type: string; metadata: { query: string; threshold: string } }>;
      };
    }>('ScaledObject', 'rehearse-worker');
    expect(scaled.spec.scaleTargetRef).toMatchObject({ kind: 'Deployment', name: 'rehearse-worker' });
    const [trigger] = scaled.spec.triggers;
    expect(trigger?.type).toBe('prometheus');
    expect(trigger?.metadata.query).toContain('rehearse_queue_depth{kind="execution"}');
    expect(Number(trigger?.metadata.threshold)).toBe(threads);
  });

  it('keeps pods that run browsers away from cloud metadata (IPv4 and IPv6) while allowing other egress', () => {
    const policies = manifests.filter((manifest) => manifest.kind === 'NetworkPolicy') as unknown as Array<{
      spec: {
        podSelector: { matchLabels: Record<string, string> };
        policyTypes: string[];
        egress?: Array<{ to?: Array<{ ipBlock?: { cidr: string; except?: string[] } }> }>;
      };
    }>;
    for (const name of ['rehearse-worker', 'rehearse-scheduler']) {
      const labels = deployment(name).spec.template.metadata.labels;
      const egress = policies.filter(
        (policy) =>
          policy.spec.policyTypes.includes('Egress') &&
          Object.entries(policy.spec.podSelector.matchLabels).every(([key, value]) => labels[key] === value),
      );
      expect(egress, name).toHaveLength(1);
      const blocks = egress[0]!.spec.egress!.flatMap((rule) => rule.to ?? []).map((peer) => peer.ipBlock);
      expect(blocks).toEqual([
        { cidr: '0.0.0.0/0', except: ['169.254.169.254/32'] },
        { cidr: '::/0', except: ['fd00:ec2::254/128'] },
      ]);
    }
  });

  it('gives the pods that run tenant code the one privilege the sandbox needs, and no capability', () => {
    for (const name of ['rehearse-worker', 'rehearse-scheduler']) {
      const pod = deployment(name).spec.template.spec;
      const security = (pod.containers[0] as Container & { securityContext: SecurityContextShape }).securityContext;
      // A /proc bubblewrap may mount, in a pod with its own user namespace (required for Unmasked).
      expect([pod.hostUsers, security.procMount], name).toEqual([false, 'Unmasked']);
      expect(security.seccompProfile, name).toEqual({ type: 'Localhost', localhostProfile: 'rehearse.json' });
      expect(security.capabilities, name).toEqual({ drop: ['ALL'] });
      expect(security.allowPrivilegeEscalation, name).toBe(false);
      expect(envOf(name).REHEARSE_JOB_LIMITS?.value, name).toBe('container');
      expect(envOf(name).REHEARSE_NO_SANDBOX, name).toBeUndefined();
    }
    // The API runs no tenant code: it keeps the runtime's defaults.
    expect(deployment('rehearse-api').spec.template.spec.hostUsers).toBeUndefined();
  });

  it('ships a seccomp profile that lets bubblewrap unshare without CAP_SYS_ADMIN', () => {
    const profile = JSON.parse(readFileSync(path.join(DIR, '..', 'seccomp.json'), 'utf8')) as {
      defaultAction: string;
      syscalls: Array<{ names: string[]; action: string; includes?: { caps?: string[] } }>;
    };
    expect(profile.defaultAction).toBe('SCMP_ACT_ERRNO');
    const allows = (syscall: string) =>
      profile.syscalls.some((rule) => rule.action === 'SCMP_ACT_ALLOW' && rule.names.includes(syscall) && !rule.includes?.caps?.length);
    for (const syscall of ['unshare', 'clone', 'mount', 'pivot_root']) expect(allows(syscall), syscall).toBe(true);
    // Still refused: what no job needs.
    for (const syscall of ['kexec_load', 'init_module', 'open_by_handle_at']) expect(allows(syscall), syscall).toBe(false);
  });

  it('hands the API and the workers the same worker token from the Secret, in a form the API accepts', () => {
    for (const name of ['rehearse-api', 'rehearse-worker'])
      expect(envOf(name).REHEARSE_WORKER_TOKEN?.valueFrom?.secretKeyRef, name).toEqual({ name: 'rehearse', key: 'REHEARSE_WORKER_TOKEN' });
    const example = (secretExample[0] as unknown as { stringData: Record<string, string> }).stringData.REHEARSE_WORKER_TOKEN;
    expect(parseSettings({ REHEARSE_WORKER_TOKEN: example }).REHEARSE_WORKER_TOKEN).toBe(example);
    expect(() => parseSettings({ REHEARSE_WORKER_TOKEN: 'rhw_short' })).toThrow(/REHEARSE_WORKER_TOKEN/);
  });

  it('publishes the port layout: 4000 for the app, 9464 for metrics', () => {
    expect(container('rehearse-api').ports).toEqual([
      { name: 'http', containerPort: 4000 },
      { name: 'metrics', containerPort: 9464 },
    ]);
    expect(container('rehearse-scheduler').ports).toEqual([{ name: 'metrics', containerPort: 9464 }]);
  });

  it.skipIf(spawnSync('kubectl', ['version', '--client']).status !== 0)('renders with kustomize into what the checks above read', () => {
    const rendered = spawnSync('kubectl', ['kustomize', DIR], { encoding: 'utf8' });
    expect(rendered.status, rendered.stderr).toBe(0);
    const documents = parseAllDocuments(rendered.stdout).map((document) => document.toJS() as Manifest);
    const names = (list: Manifest[]) => list.map((manifest) => `${manifest.kind}/${manifest.metadata.name}`).sort();
    expect(names(documents)).toEqual(names(manifests));
    for (const document of documents) if (document.kind !== 'Namespace') expect(document.metadata.namespace).toBe('rehearse');
    const worker = documents.find(
      (document) => document.kind === 'Deployment' && document.metadata.name === 'rehearse-worker',
    ) as unknown as DeploymentShape;
    expect(worker.spec.template.spec.containers[0]!.image).toBe('registry.example.com/rehearse:0.1.0');
  });
});

describe('deploy/Dockerfile', () => {
  const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
  const dockerfile = readFileSync(path.join(ROOT, 'deploy', 'Dockerfile'), 'utf8');

  it("installs the dependencies from every workspace's manifest and bins before it copies the sources (so a source edit reuses that layer)", () => {
    const { workspaces } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { workspaces: string[] };
    const beforeSources = dockerfile.slice(0, dockerfile.indexOf('COPY . .'));
    for (const workspace of workspaces) {
      expect(beforeSources).toContain(`COPY ${workspace}/package.json ${workspace}/`);
      const { bin } = JSON.parse(readFileSync(path.join(ROOT, workspace, 'package.json'), 'utf8')) as { bin?: Record<string, string> };
      for (const file of Object.values(bin ?? {}))
        expect(beforeSources).toContain(`COPY ${workspace}/${path.dirname(file).replace(/^\.\//, '')} `);
    }
    expect(beforeSources).toMatch(/npm ci --no-audit/);
  });
});
