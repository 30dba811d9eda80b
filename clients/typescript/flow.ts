// A team's pipeline, written against the typescript-fetch client generated from openapi.yaml with no option
// changed: the platform side sets up a GPU type, a pool, a tenant and a service account; the pipeline then books,
// waits for its cluster, and cancels. Run by .ci/generated-clients.sh against the smoke-test jar; it exits non-zero
// on the first call that fails.
import {
  Configuration, ClustersApi, GpuTypesApi, NodesApi, PoolsApi, ProjectsApi, QuotaApi, RateCardsApi, ReservationsApi,
  ServiceAccountsApi, TenantsApi, ResponseError,
} from './generated';

const base = process.env.BASE ?? 'http://127.0.0.1:8080';

async function token(clientId: string, secret: string): Promise<string> {
  const answer = await fetch(`${base}/oauth2/token`, {
    method: 'POST',
    headers: {
      'Authorization': 'Basic ' + Buffer.from(`${clientId}:${secret}`).toString('base64'),
      'Content-Type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  });
  if (!answer.ok) {
    throw new Error(`POST /oauth2/token answered ${answer.status}: ${await answer.text()}`);
  }
  return (await answer.json() as { access_token: string }).access_token;
}

function minutesFromNow(minutes: number): Date {
  const at = new Date(Date.now() + minutes * 60_000);
  at.setUTCSeconds(0, 0);
  return at;
}

async function main(): Promise<void> {
  const suffix = Date.now().toString(36);
  const gpuType = `TS${suffix}`.toUpperCase().slice(0, 16);
  const pool = `ts-${suffix}`;
  const tenant = `ts-${suffix}`;

  const admin = new Configuration({
    basePath: base,
    accessToken: await token(process.env.ALLOT_BOOTSTRAP_CLIENT_ID!, process.env.ALLOT_BOOTSTRAP_CLIENT_SECRET!),
  });
  await new GpuTypesApi(admin).createGpuType({ createGpuType: { code: gpuType, memoryGb: 80 } });
  await new RateCardsApi(admin).replaceRateCard({
    gpuType,
    putCard: { effectiveFrom: new Date('2020-01-01'), currency: 'USD', prices: { RESERVED: 2, BORROWED: 1.5, ON_DEMAND: 4 } },
  });
  await new PoolsApi(admin).createPool({ createPool: { name: pool, gpuType, gpusPerNode: 8, region: 'us-east-1' } });
  for (const n of ['001', '002']) {
    await new NodesApi(admin).addNode({ pool, createNode: { hostname: `${pool}-${n}`, rack: 'r1', ibBlock: 'ib1' } });
  }
  await new TenantsApi(admin).createTenant({ createTenant: { slug: tenant, displayName: 'TypeScript client' } });
  await new ProjectsApi(admin).createProject({ tenant, createProject: { slug: 'pipeline', displayName: 'Pipeline' } });
  await new QuotaApi(admin).replaceQuota({
    tenant,
    quotaBody: {
      storageGi: null,
      policies: [{
        gpuType, guaranteedGpus: 16, maxGpus: 16, burst: false, maxWindow: 'P7D', maxAdvance: 'P90D',
        monthlyBudget: null, priority: null, lendableGpus: null, zone: null, windows: null,
      }],
    },
  });
  const account = await new ServiceAccountsApi(admin).createServiceAccount({
    tenant, createServiceAccount: { name: 'pipeline', role: 'MEMBER' },
  });

  // the pipeline, with its own credentials
  const pipeline = new Configuration({ basePath: base, accessToken: await token(account.clientId, account.clientSecret) });
  const reservations = new ReservationsApi(pipeline);
  const booked = await reservations.createReservation({
    tenant,
    idempotencyKey: `ts-flow-${suffix}`,
    reservationRequest: {
      project: 'pipeline', pool, gpus: 16, startsAt: minutesFromNow(5), endsAt: minutesFromNow(65),
      cluster: { orchestrator: 'SLURM', cudaDriver: null, sharedMemoryGi: null, volumes: null, sshPublicKeys: null },
    },
  });
  console.log(`booked ${booked.id}: ${booked.status}, nodes ${booked.nodes.join(', ')}`);

  const cluster = await new ClustersApi(pipeline).getClusterStatus({
    tenant, id: booked.id, waitFor: 'READY', timeout: 'PT5M',
  });
  console.log(`cluster ${cluster.state}, ssh ${cluster.endpoints?.sshHost ?? '-'}`);
  if (cluster.state !== 'READY') {
    throw new Error(`the cluster did not become READY: ${cluster.state} (${cluster.stateReason ?? ''})`);
  }

  const cancelled = await reservations.cancelReservation({ tenant, id: booked.id });
  console.log(`cancelled: ${cancelled.status}`);
  if (cancelled.status !== 'CANCELLED') {
    throw new Error(`cancel answered ${cancelled.status}`);
  }
}

main().catch(async (failure: unknown) => {
  if (failure instanceof ResponseError) {
    console.error(`${failure.response.status} ${failure.response.url}: ${await failure.response.text()}`);
  }
  else {
    console.error(failure);
  }
  process.exit(1);
});
