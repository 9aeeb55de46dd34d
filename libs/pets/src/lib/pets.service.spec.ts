import { type CreateOnceResult, type IdempotentRequest, type NewPet, type Pet, PetRepository, type PetStatus } from '@petstore/domain';
import { PetsService } from './pets.service';

const PET: Pet = { id: 7n, name: 'Rex', categoryId: 9223372036854775807n, status: 'available' };
const FINGERPRINT = new Uint8Array(32).fill(1);

/** A repository that records the idempotent creates it is asked for and answers `result`. */
class RecordingRepository extends PetRepository {
  readonly createOnceCalls: Array<{ request: IdempotentRequest; pet: NewPet & { status: PetStatus }; lifetimeSeconds: number }> = [];
  readonly createCalls: Array<NewPet & { status: PetStatus }> = [];

  constructor(private readonly result: CreateOnceResult) {
    super();
  }

  list = async () => [];
  findById = async () => undefined;

  async create(pet: NewPet & { status: PetStatus }): Promise<Pet> {
    this.createCalls.push(pet);
    return PET;
  }

  async createOnce(request: IdempotentRequest, pet: NewPet & { status: PetStatus }, lifetimeSeconds: number): Promise<CreateOnceResult> {
    this.createOnceCalls.push({ request, pet, lifetimeSeconds });
    return this.result;
  }
}

describe('PetsService', () => {
  describe('createOnce', () => {
    it('asks the repository for an idempotent create scoped to the principal, with the configured lifetime', async () => {
      const repository = new RecordingRepository({ outcome: 'created', pet: PET });
      const service = new PetsService(repository, { lifetimeSeconds: 3600 });

      await service.createOnce('env-1', 'key-1', FINGERPRINT, { name: 'Rex', categoryId: 9223372036854775807n, status: 'sold' });

      expect(repository.createOnceCalls).toEqual([
        {
          request: { principal: 'env-1', key: 'key-1', fingerprint: FINGERPRINT },
          pet: { name: 'Rex', categoryId: 9223372036854775807n, status: 'sold' },
          lifetimeSeconds: 3600,
        },
      ]);
      expect(repository.createCalls).toEqual([]);
    });

    it('makes the pet available when no status is given, as a create without a key does', async () => {
      const repository = new RecordingRepository({ outcome: 'created', pet: PET });
      const service = new PetsService(repository, { lifetimeSeconds: 86400 });

      await service.createOnce('env-1', 'key-1', FINGERPRINT, { name: 'Rex', categoryId: 1n });
      await service.create({ name: 'Rex', categoryId: 1n });

      expect(repository.createOnceCalls[0].pet).toEqual({ name: 'Rex', categoryId: 1n, status: 'available' });
      expect(repository.createCalls[0]).toEqual(repository.createOnceCalls[0].pet);
    });

    it.each<CreateOnceResult>([
      { outcome: 'created', pet: PET },
      { outcome: 'replayed', pet: PET },
      { outcome: 'mismatch' },
      { outcome: 'in-progress' },
    ])('hands back what became of the create: $outcome', async (result) => {
      const service = new PetsService(new RecordingRepository(result), { lifetimeSeconds: 86400 });
      await expect(service.createOnce('env-1', 'key-1', FINGERPRINT, { name: 'Rex', categoryId: 1n })).resolves.toEqual(result);
    });

    it('leaves a create without a key to the plain create', async () => {
      const repository = new RecordingRepository({ outcome: 'created', pet: PET });
      await expect(new PetsService(repository, { lifetimeSeconds: 86400 }).create({ name: 'Rex', categoryId: 1n })).resolves.toEqual(PET);
      expect(repository.createOnceCalls).toEqual([]);
    });
  });
});
