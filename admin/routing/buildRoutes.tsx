/** Turns the route table into React Router routes, grouped under their layouts. */
import type { ComponentType } from 'react';
import { Navigate, type RouteObject } from 'react-router-dom';
import { ROUTES, type AppRoute, type Layout } from '../router';
import { AppLayout } from '../layouts/AppLayout';
import { CardLayout, PublicLayout } from '../layouts/PublicLayout';
import { Guard } from './Guard';

function RouteScreen({ route }: { route: AppRoute }) {
  const Screen = route.screen;
  return <Guard route={route}>{route.redirect ? <Navigate to={route.redirect} replace /> : <Screen />}</Guard>;
}

const LAYOUTS: Record<Layout, ComponentType> = {
  app: AppLayout,
  public: PublicLayout,
  card: CardLayout,
};

export function buildRoutes(table: readonly AppRoute[] = ROUTES): RouteObject[] {
  return (Object.keys(LAYOUTS) as Layout[]).map((layout) => {
    const LayoutComponent = LAYOUTS[layout];
    return {
      element: <LayoutComponent />,
      children: table
        .filter((route) => route.layout === layout)
        .map((route) => ({ path: route.path, handle: route, element: <RouteScreen route={route} /> })),
    };
  });
}
