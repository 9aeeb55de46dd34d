// The same package from CommonJS (this file compiles to require()): the same exports.
import { createPet, createPetstoreClient, walkPets, WalkPetsError } from '@petstore/client';

console.log(JSON.stringify([createPet, createPetstoreClient, walkPets, WalkPetsError].map((value) => typeof value)));
