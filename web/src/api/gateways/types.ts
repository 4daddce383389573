export type { GatewayCreate, GatewayMove, GatewayQuery, GatewayRead, GatewaySecret, GatewayUpdate } from '@/api/schema';
