import { Select, type SelectProps } from 'antd';
import { useProjectOptions } from '@/api/projects/queries';

type Props = Omit<SelectProps<number>, 'options' | 'loading' | 'style'> & {
  width: number;
  /** Show the select loading while the project list is fetched. */
  showLoading?: boolean;
  /** Only the caller's own projects (not those shared with it), for what only an owner may do. */
  ownedOnly?: boolean;
};

/** A clearable filter select of the visible projects (value: the project's sysno). */
export function ProjectSelect({ width, showLoading, ownedOnly, ...props }: Props) {
  const projects = useProjectOptions();
  return (
    <Select
      allowClear
      {...props}
      style={{ width }}
      loading={showLoading ? projects.isPending : undefined}
      options={(projects.data ?? [])
        .filter((p) => !ownedOnly || !p.owner_name)
        .map((p) => ({ value: p.sysno, label: p.name }))}
    />
  );
}
