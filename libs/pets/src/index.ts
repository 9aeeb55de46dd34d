export * from './lib/dto/create-pet.dto';
export * from './lib/dto/pet.dto';
export * from './lib/pets.module';
export * from './lib/pets.service';
