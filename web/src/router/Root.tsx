import { useEffect } from 'react';
import { Outlet, useNavigate } from 'react-router';
import { setNavigator } from '@/api/core';
import { TitleSync } from './TitleSync';

/** Top of the route tree: lets the API client navigate and keeps the document title in step. */
export function Root() {
  const navigate = useNavigate();
  useEffect(() => {
    setNavigator((to) => navigate(to, { replace: true }));
  }, [navigate]);
  return (
    <>
      <TitleSync />
      <Outlet />
    </>
  );
}
