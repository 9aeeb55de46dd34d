import { namedStatement } from './named-statement';
// The repositories' statements are named as their modules load: a copied name would fail here.
import './sql-api-key.repository';
import './sql-pet.repository';

describe('namedStatement', () => {
  it('refuses a name already given to another statement, naming the fix', () => {
    namedStatement('test_statement', 'SELECT 1');
    expect(() => namedStatement('test_statement', 'SELECT 2')).toThrow(
      'The statement name "test_statement" is given to two different statements: give each a name of its own',
    );
  });

  it('takes the same statement twice under its name', () => {
    expect(namedStatement('test_same', 'SELECT 3')).toEqual(namedStatement('test_same', 'SELECT 3'));
  });

  it('refuses a copied name of a repository', () => {
    expect(() => namedStatement('pets_find_by_id', 'SELECT 1')).toThrow('give each a name of its own');
  });
});
