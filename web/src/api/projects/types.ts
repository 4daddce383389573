import type { components } from '@/api/schema';

type Schemas = components['schemas'];

export type ProjectRead = Schemas['ProjectRead'];
export type BuildingRead = Schemas['BuildingRead'];
export type ProjectQuery = Schemas['ProjectQuery'];
export type ProjectCreate = Schemas['ProjectCreate'];
export type ProjectUpdate = Schemas['ProjectUpdate'];
export type BuildingCreate = Schemas['BuildingCreate'];
export type BuildingUpdate = Schemas['BuildingUpdate'];
export type ProjectOption = Schemas['ProjectOption'];
export type ProjectDashboard = Schemas['ProjectDashboard'];
export type ProjectDashboardRow = Schemas['ProjectDashboardRow'];
export type TreeNode = Schemas['TreeNode'];
