// For libs that record metrics without the rest of this lib (persistence): prom-client alone.
export { BoundHistogram } from './lib/bound-histogram';
