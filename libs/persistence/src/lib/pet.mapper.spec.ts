import { toPet } from './sql-pet.repository';

describe('toPet', () => {
  it('turns the string ids of node-postgres into exact bigints', () => {
    expect(toPet({ id: '9223372036854775807', name: 'Rex', categoryId: '9007199254740993', status: 'sold' })).toEqual({
      id: 9223372036854775807n,
      name: 'Rex',
      categoryId: 9007199254740993n,
      status: 'sold',
    });
  });

  it('keeps the bigint ids of PGlite', () => {
    expect(toPet({ id: 7n, name: 'Tom', categoryId: 2n, status: 'pending' })).toEqual({
      id: 7n,
      name: 'Tom',
      categoryId: 2n,
      status: 'pending',
    });
  });

  it('refuses a row with an unknown status', () => {
    expect(() => toPet({ id: '12', name: 'Rex', categoryId: '1', status: 'lost' })).toThrow('Pet 12 has an unknown status');
  });
});
