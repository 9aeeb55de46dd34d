import { LIST_PETS_QUERY_SCHEMA } from './pet.schemas';

describe('LIST_PETS_QUERY_SCHEMA limit pattern', () => {
  const limit = new RegExp(LIST_PETS_QUERY_SCHEMA.properties.limit.pattern);

  it.each(Array.from({ length: 102 }, (_, n) => n))('matches %i only when it is from 1 to 100', (n) => {
    expect(limit.test(String(n))).toBe(n >= 1 && n <= 100);
  });

  it.each(['', '1e2', '+5', '-1', '05', '00', '010', '1.0', '1.5', ' 5', '5 ', '0x10', '1000', 'ten', '5\n'])('refuses %p', (text) => {
    expect(limit.test(text)).toBe(false);
  });
});
