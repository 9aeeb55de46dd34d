import { DEFAULT_PET_STATUS, isPetStatus, PET_STATUSES } from './pet-status';

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

  it('lists the three statuses and defaults to available', () => {
    expect(PET_STATUSES).toEqual(['available', 'pending', 'sold']);
    expect(DEFAULT_PET_STATUS).toBe('available');
  });
});
