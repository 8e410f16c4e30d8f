import { Search, SearchX } from 'lucide-react';
import { useId, useMemo, useState, type ReactNode } from 'react';
import { Strings } from '../lib/strings';

export interface Column<Row> {
  id: string;
  header: ReactNode;
  cell: (row: Row) => ReactNode;
  /** Tailwind classes of the column's cells (width, alignment). */
  className?: string;
  /** A column header that is only read by screen readers (an actions column). */
  srOnlyHeader?: boolean;
}

export interface TableFilter<Row> {
  label: string;
  options: { value: string; label: string; test: (row: Row) => boolean }[];
}

export interface DataTableProps<Row> {
  /** Plural noun for the empty messages: 'No {page} found'. */
  page: string;
  /** Accessible name of the table. */
  label: string;
  columns: Column<Row>[];
  rows: Row[] | undefined;
  rowKey: (row: Row) => string;
  /** The text a search looks in; without it there is no search box. */
  searchText?: (row: Row) => string;
  filter?: TableFilter<Row>;
  loading?: boolean;
  /** Buttons shown right of the search box. */
  actions?: ReactNode;
  testId?: string;
}

/**
 * The shared table of the settings pages (spec 01 §2): search, one filter, loading and the two
 * empty messages 'No {page} found' and '"{term}" did not match any {page}. Please try again.'
 */
export function DataTable<Row>({
  page,
  label,
  columns,
  rows,
  rowKey,
  searchText,
  filter,
  loading = false,
  actions,
  testId,
}: DataTableProps<Row>) {
  const [term, setTerm] = useState('');
  const [filterValue, setFilterValue] = useState(filter?.options[0]?.value ?? '');
  const searchId = useId();
  const filterId = useId();

  const visible = useMemo(() => {
    const needle = term.trim().toLowerCase();
    const option = filter?.options.find((o) => o.value === filterValue);
    return (rows ?? []).filter(
      (row) => (!option || option.test(row)) && (!needle || !searchText || searchText(row).toLowerCase().includes(needle)),
    );
  }, [rows, term, filter, filterValue, searchText]);

  const trimmed = term.trim();
  const emptyMessage = trimmed ? Strings.tableNoMatch(trimmed, page) : Strings.tableEmpty(page);

  return (
    <div className="flex flex-col gap-3" data-testid={testId}>
      {(searchText || filter || actions) && (
        <div className="flex flex-wrap items-center gap-3">
          {searchText && (
            <div className="relative w-72">
              <label htmlFor={searchId} className="sr-only">
                {Strings.tableSearch(page)}
              </label>
              <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-400" />
              <input
                id={searchId}
                type="search"
                value={term}
                onChange={(event) => setTerm(event.target.value)}
                placeholder={Strings.tableSearch(page)}
                className="h-10 w-full rounded-lg border border-slate-300 bg-white pr-3 pl-9 text-sm shadow-xs outline-none placeholder:text-slate-500 hover:border-slate-400 focus:border-brand-500 focus:ring-2 focus:ring-brand-200"
              />
            </div>
          )}
          {filter && (
            <div className="flex items-center gap-2">
              <label htmlFor={filterId} className="text-sm text-slate-600">
                {filter.label}
              </label>
              <select
                id={filterId}
                value={filterValue}
                onChange={(event) => setFilterValue(event.target.value)}
                className="h-10 rounded-lg border border-slate-300 bg-white px-3 text-sm shadow-xs outline-none hover:border-slate-400 focus:border-brand-500 focus:ring-2 focus:ring-brand-200"
              >
                {filter.options.map((option) => (
                  <option key={option.value} value={option.value}>
                    {option.label}
                  </option>
                ))}
              </select>
            </div>
          )}
          {actions && <div className="ml-auto flex items-center gap-3">{actions}</div>}
        </div>
      )}

      <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-xs">
        <table aria-label={label} aria-busy={loading || undefined} className="w-full text-left text-sm">
          <thead className="border-b border-slate-200 bg-slate-50 text-xs font-semibold tracking-wide text-slate-600 uppercase">
            <tr>
              {columns.map((column) => (
                <th key={column.id} scope="col" className={`px-4 py-3 ${column.className ?? ''}`}>
                  {column.srOnlyHeader ? <span className="sr-only">{column.header}</span> : column.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {loading && !rows ? (
              Array.from({ length: 3 }, (_, i) => (
                <tr key={i} aria-hidden="true">
                  {columns.map((column) => (
                    <td key={column.id} className="px-4 py-4">
                      <span className="block h-3 w-3/4 animate-pulse rounded bg-slate-200" />
                    </td>
                  ))}
                </tr>
              ))
            ) : visible.length === 0 ? (
              <tr>
                <td colSpan={columns.length} className="px-4 py-10 text-center">
                  <span role="status" className="inline-flex items-center gap-2 text-sm text-slate-500">
                    {trimmed && <SearchX aria-hidden="true" className="size-4" />}
                    {emptyMessage}
                  </span>
                </td>
              </tr>
            ) : (
              visible.map((row) => (
                <tr key={rowKey(row)} className="hover:bg-slate-50/60">
                  {columns.map((column) => (
                    <td key={column.id} className={`px-4 py-3 align-middle text-slate-700 ${column.className ?? ''}`}>
                      {column.cell(row)}
                    </td>
                  ))}
                </tr>
              ))
            )}
          </tbody>
        </table>
        {loading && !rows && (
          <p role="status" className="sr-only">
            {Strings.tableLoading(page)}
          </p>
        )}
      </div>
    </div>
  );
}
