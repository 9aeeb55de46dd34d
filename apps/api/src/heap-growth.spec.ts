import { limitHeapGrowth } from './heap-growth';

describe('limitHeapGrowth', () => {
  it('sets the growing factor when node was started without one', () => {
    expect(limitHeapGrowth(['--enable-source-maps'])).toBe(true);
  });

  it.each(['--heap-growing-percent=80', '--heap_growing_percent=80', '--heap-growing-percent'])(
    'leaves the one an operator gave node alone (%s)',
    (flag) => {
      expect(limitHeapGrowth([flag])).toBe(false);
    },
  );

  it('does not mistake another flag for it', () => {
    expect(limitHeapGrowth(['--heap-growing-percentage=80'])).toBe(true);
  });
});
