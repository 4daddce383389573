import { useEffect, useRef } from 'react';
import { Tag } from 'antd';
import { useLocation, useNavigate } from 'react-router';
import { useRouteTitle } from '@/router/TitleSync';
import { tagsActions, useTags } from '@/store/tagsView';
import styles from '../layout.module.css';

/** Tab history: every page opened in this session, closable except the dashboard. */
export function TagsView() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const title = useRouteTitle();
  const views = useTags((s) => s.views);
  const bar = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (title) tagsActions.add({ path: pathname, title });
  }, [pathname, title]);

  useEffect(() => {
    bar.current?.querySelector('[data-active="true"]')?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [pathname, views.length]);

  function close(path: string) {
    const next = tagsActions.remove(path);
    if (path === pathname) navigate(next ?? '/');
  }

  return (
    <div className={styles.tags} data-testid="tags-view" ref={bar}>
      {views.map((view) => (
        <Tag
          key={view.path}
          className={styles.tag}
          color={view.path === pathname ? 'processing' : undefined}
          data-active={view.path === pathname}
          closable={!view.affix}
          onClose={(event) => {
            event.preventDefault();
            close(view.path);
          }}
          onClick={() => navigate(view.path)}
        >
          {view.title}
        </Tag>
      ))}
    </div>
  );
}
