// A program of a project outside the workspace that installed @petstore/client from its tarball:
// type-checked (strict) by that project's tsc, then run by node against a started service, by
// client-package.e2e-spec.ts. It prints what it saw as JSON (bigints as digits); the test judges.
import { createPet, createPetstoreClient, type Pet, type PetStatus, walkPets, type WalkPetsQuery } from '@petstore/client';

// The project has no @types/node, on purpose: the package's types need only the DOM's (fetch).
declare const process: { readonly env: Readonly<Record<string, string | undefined>> };

const petstore = createPetstoreClient({ baseUrl: `${process.env.PETSTORE_URL}/v1`, apiKey: process.env.PETSTORE_KEY ?? '' });
const ABOVE_2_53 = 9223372036854775807n;

const { data: created, error } = await petstore.POST('/pets', { body: { name: 'Exact', categoryId: ABOVE_2_53 } });
if (created === undefined) throw new Error(`createPet answered ${JSON.stringify(error)}`);
const { data: fetched } = await petstore.GET('/pets/{petId}', { params: { path: { petId: created.id } } });

// Eight more, of every status, through createPet (its retries and Idempotency-Key).
const statuses: PetStatus[] = ['pending', 'sold', 'available'];
const pets: Pet[] = [created];
for (let i = 0; i < 8; i++) pets.push(await createPet(petstore, { name: `Walked ${i}`, categoryId: BigInt(i), status: statuses[i % 3] }));

async function walked(query: WalkPetsQuery): Promise<bigint[]> {
  const ids: bigint[] = [];
  for await (const pet of walkPets(petstore, query)) ids.push(pet.id);
  return ids;
}

const seen = {
  created,
  fetched,
  exact: created.categoryId === ABOVE_2_53 && fetched?.categoryId === ABOVE_2_53,
  ids: pets.map((pet) => pet.id),
  soldIds: pets.filter((pet) => pet.status === 'sold').map((pet) => pet.id),
  walked: await walked({ limit: 3 }),
  walkedSold: await walked({ limit: 2, status: 'sold' }),
};
console.log(JSON.stringify(seen, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value)));
