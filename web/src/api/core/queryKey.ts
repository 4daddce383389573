/** A React Query key whose parts keep their literal types (a readonly tuple). */
export function queryKey<const T extends readonly unknown[]>(...parts: T): T {
  return parts;
}
