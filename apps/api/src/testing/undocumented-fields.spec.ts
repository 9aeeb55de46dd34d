import Fastify from 'fastify';
import { recordUndocumentedFields, takeUndocumentedFields } from './undocumented-fields';

describe('undocumented answer fields, in the in-process suite', () => {
  const pet = { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } };

  async function answer(body: unknown, schema: object): Promise<string[]> {
    const fastify = Fastify();
    recordUndocumentedFields(fastify);
    fastify.get('/pets', { schema: { response: { 200: schema } } }, () => body);
    await fastify.inject('/pets');
    await fastify.close();
    return takeUndocumentedFields();
  }

  it('names a field the schema leaves out, where it is, and the fix', async () => {
    const [problem] = await answer(
      { data: [{ id: 1, name: 'Rex', adoptedAt: '2026-11-27' }] },
      { type: 'object', properties: { data: { type: 'array', items: pet } } },
    );
    expect(problem).toContain('GET /pets answered 200 with data[0].adoptedAt');
    expect(problem).toContain('@ApiProperty');
  });

  it('lets an answer through whose every field is documented, or left undefined', async () => {
    expect(await answer({ id: 1, name: 'Rex', status: undefined }, pet)).toEqual([]);
  });
});
