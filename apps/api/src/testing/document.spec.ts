import type { OpenAPIObject } from '@nestjs/swagger';
import { committedDocument, driftFromCommitted } from './document';

// The check that the committed document has every operation of the code (contract.spec.ts runs it
// on the live document): here, that it fails, naming the fix, when they part.

describe('driftFromCommitted', () => {
  const committed = committedDocument();
  const copy = (): OpenAPIObject => JSON.parse(JSON.stringify(committed)) as OpenAPIObject;

  it('finds nothing between a document and itself', () => {
    expect(driftFromCommitted(copy(), committed)).toEqual([]);
  });

  it('names an operation of the code that the committed document lacks', () => {
    const live = copy();
    live.paths['/pets/{petId}'].put = { operationId: 'replacePet', responses: { '204': { description: 'Replaced' } } };
    expect(driftFromCommitted(live, committed)).toEqual([
      'PUT /pets/{petId} (replacePet) is in the code but not in the committed document: run npm run openapi',
    ]);
  });

  it('names an operation the code describes otherwise, and one it no longer has', () => {
    const live = copy();
    live.paths['/pets'].get!.summary = 'Another summary';
    delete live.paths['/pets'].post;
    expect(driftFromCommitted(live, committed)).toEqual([
      'GET /pets (listPets) differs from the committed document: run npm run openapi',
      'POST /pets is in the committed document but not in the code: run npm run openapi',
    ]);
  });
});
