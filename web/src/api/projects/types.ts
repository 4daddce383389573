export type {
  BuildingCreate,
  BuildingRead,
  BuildingUpdate,
  ProjectCreate,
  ProjectDashboardRow,
  ProjectQuery,
  ProjectRead,
  ProjectUpdate,
  TreeNode,
} from '@/api/schema';
