/** One page of a list call's rows, and how many rows the whole list has. */
export interface Page<T> {
  dataSource: T[];
  totalCount: number;
}
