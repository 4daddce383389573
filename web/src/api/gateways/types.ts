import type { components } from '@/api/schema';

type Schemas = components['schemas'];

export type GatewayRead = Schemas['GatewayRead'];
export type GatewayQuery = Schemas['GatewayQuery'];
export type GatewayCreate = Schemas['GatewayCreate'];
export type GatewayCreated = Schemas['GatewayCreated'];
export type GatewayUpdate = Schemas['GatewayUpdate'];
export type GatewayMove = Schemas['GatewayMove'];
export type GatewaySecret = Schemas['GatewaySecret'];
