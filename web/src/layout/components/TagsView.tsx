import { useEffect, useRef } from 'react';
import { Dropdown, Tag } from 'antd';
import { useLocation, useNavigate } from 'react-router';
import { layout } from '@/locales/zh-CN';
import { useLeafTitle } from '@/router/TitleSync';
import { tagsActions, useTags, type VisitedView } from '@/store/tagsView';
import styles from '../layout.module.css';

type TagAction = 'refresh' | 'close' | 'closeOthers' | 'closeAll';

/** Tab history: every page opened in this tab, closable except the dashboard; right-click for more. */
export function TagsView() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const title = useLeafTitle();
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

  function act(action: TagAction, view: VisitedView) {
    if (action === 'refresh') {
      // /redirect/{path} leaves the page and comes straight back, so it mounts afresh.
      navigate(`/redirect${view.path}`, { replace: true });
    } else if (action === 'close') {
      close(view.path);
    } else if (action === 'closeOthers') {
      tagsActions.keepOnly(view.path);
      navigate(view.path);
    } else {
      tagsActions.clear();
      navigate('/dashboard');
    }
  }

  return (
    <div className={styles.tags} data-testid="tags-view" ref={bar}>
      {views.map((view) => (
        <Dropdown
          key={view.path}
          trigger={['contextMenu']}
          menu={{
            items: [
              { key: 'refresh', label: layout.refresh },
              { key: 'close', label: layout.closeTab, disabled: view.affix },
              { key: 'closeOthers', label: layout.closeOthers },
              { key: 'closeAll', label: layout.closeAll },
            ],
            onClick: ({ key }) => act(key as TagAction, view),
          }}
        >
          <Tag
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
        </Dropdown>
      ))}
    </div>
  );
}
