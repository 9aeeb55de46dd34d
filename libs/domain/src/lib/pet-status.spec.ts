import { isPetStatus } from './pet-status';

describe('isPetStatus', () => {
  it.each(['available', 'pending', 'sold'])('accepts %p', (value) => {
    expect(isPetStatus(value)).toBe(true);
  });

  it.each(['', 'Available', 'SOLD', ' sold', 'sold ', 'adopted', 'length'])('refuses the string %p', (value) => {
    expect(isPetStatus(value)).toBe(false);
  });

  it.each([null, undefined, 0, true, ['sold'], { status: 'sold' }])('refuses the non-string %p', (value) => {
    expect(isPetStatus(value)).toBe(false);
  });
});
