/** Tenants and their service accounts. */
export {
  type AccountClientOptions,
  type AccountPool,
  accountIdOf,
  createAccountPool,
  keyHint,
  type ServiceAccount,
} from './accounts.js';
export { adminRole, OUTSIDE_MESSAGE, PermissionError } from './roles.js';
export { createSealer, SealError, type Sealer } from './seal.js';
export {
  type Access,
  type Connection,
  createTenants,
  type TenancyMode,
  type TenantRef,
  type Tenants,
  tenantOf,
} from './tenants.js';
