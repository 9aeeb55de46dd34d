import { INT64_MAX, INT64_MIN, parseInt64 } from './int64';

describe('parseInt64', () => {
  it.each([
    ['0', 0n],
    ['42', 42n],
    ['-7', -7n],
    ['9223372036854775807', INT64_MAX],
    ['-9223372036854775808', INT64_MIN],
  ])('parses %s exactly', (text, expected) => {
    expect(parseInt64(text)).toBe(expected);
  });

  it.each([
    '',
    'abc',
    '1.5',
    '1e2',
    '+1',
    '01',
    '-0',
    ' 1',
    '1 ',
    '0x10',
    '9223372036854775808',
    '-9223372036854775809',
    '99999999999999999999',
  ])('refuses %p', (text) => {
    expect(parseInt64(text)).toBeUndefined();
  });
});
