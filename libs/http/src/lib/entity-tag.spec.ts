import { entityTagOf, ifNoneMatchNames } from './entity-tag';

describe('entityTagOf', () => {
  it('is a strong entity-tag (RFC 9110, section 8.8.3), the same for the same bytes as text or Buffer', () => {
    const tag = entityTagOf('[{"id":1}]');
    expect(tag).toMatch(/^"[\x21\x23-\x7e]+"$/);
    expect(entityTagOf(Buffer.from('[{"id":1}]'))).toBe(tag);
  });

  it('changes with any byte', () => {
    expect(entityTagOf('[{"id":1}]')).not.toBe(entityTagOf('[{"id":2}]'));
    expect(entityTagOf('é')).not.toBe(entityTagOf('e'));
  });

  it('holds no comma, so that ifNoneMatchNames never splits one of ours', () => {
    for (let i = 0; i < 1000; i++) expect(entityTagOf(String(i))).not.toContain(',');
  });
});

describe('ifNoneMatchNames (RFC 9110, section 13.1.2)', () => {
  const tag = entityTagOf('body');
  const other = entityTagOf('other');

  it.each([
    ['the tag', tag],
    ['its weak form', `W/${tag}`],
    ['a list holding it', `${other}, ${tag}`],
    ['a list without spaces, weak', `${other},W/${tag}`],
    ['a list with empty members', ` , ${tag} ,`],
    ['*', '*'],
    ['* with spaces around', ' * '],
    ['repeated fields, one holding it', [other, tag]],
  ])('names it: %s', (_name, field) => {
    expect(ifNoneMatchNames(field, tag)).toBe(true);
  });

  it('compares weakly from either side: a weak tag of ours matches its strong form', () => {
    expect(ifNoneMatchNames(tag, `W/${tag}`)).toBe(true);
  });

  it.each([
    ['no field', undefined],
    ['another tag', other],
    ['the tag unquoted', tag.slice(1, -1)],
    ['the tag with another case of prefix', `w/${tag}`],
    ['an empty field', ''],
    ['* within a list', `${other}, *`],
    ['the tag inside a longer one', `"x${tag.slice(1)}`],
  ])('does not name it: %s', (_name, field) => {
    expect(ifNoneMatchNames(field, tag)).toBe(false);
  });
});
