import { petNameProblem } from './pet-name';

describe('petNameProblem', () => {
  it('accepts a one-character name', () => {
    expect(petNameProblem('R')).toBeUndefined();
  });

  it('refuses an empty name', () => {
    expect(petNameProblem('')).toBe('must be 1 to 255 characters long');
  });

  it('accepts 255 characters', () => {
    expect(petNameProblem('a'.repeat(255))).toBeUndefined();
  });

  it('counts code points, so 255 emoji (510 UTF-16 units) are accepted', () => {
    const name = '🐶'.repeat(255);
    expect(name.length).toBe(510);
    expect(petNameProblem(name)).toBeUndefined();
  });

  it.each([
    ['256 letters', 'a'.repeat(256)],
    ['256 emoji', '🐶'.repeat(256)],
    ['255 letters and an emoji', `${'a'.repeat(255)}🐶`],
  ])('refuses %s', (_label, name) => {
    expect(petNameProblem(name)).toBe('must be 1 to 255 characters long');
  });

  it.each([
    ['NUL', 'Re\u0000x'],
    ['unit separator U+001F', 'Re\u001fx'],
    ['DEL', 'Re\u007fx'],
    ['C1 next line U+0085', 'Re\u0085x'],
    ['tab', 'Re\tx'],
    ['newline', 'Rex\n'],
    ['carriage return', '\rRex'],
  ])('refuses a control character: %s', (_label, name) => {
    expect(petNameProblem(name)).toBe('must not contain control characters');
  });

  it.each([
    ['a lone high surrogate', 'Re\ud800x'],
    ['a lone low surrogate', 'Re\udc00x'],
    ['only a lone surrogate', '\ud800'],
  ])('refuses %s', (_label, name) => {
    expect(petNameProblem(name)).toBe('must be valid Unicode (no lone surrogates)');
  });

  it.each([
    ['quotes', `O'Malley "the cat"`],
    ['SQL-looking text', "Robert'); DROP TABLE pets;--"],
    ['HTML-looking text', '<script>alert(1)</script>'],
    ['accented letters', 'Zoë Müller'],
    ['CJK', '小白'],
    ['an emoji with a skin-tone modifier', 'Rex 👍🏽'],
    ['inner spaces', 'Sir Barks A Lot'],
  ])('accepts %s', (_label, name) => {
    expect(petNameProblem(name)).toBeUndefined();
  });
});
