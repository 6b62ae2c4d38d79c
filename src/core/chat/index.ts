/**
 * The chat port, the one module platform adapters import from core besides the reply model (core/ui), the
 * outbound contract (core/outbound), the logger and the error base: `ChatCore` and the types and small helpers of
 * the chat syntax, tenancy and operator endpoints that adapters use.
 */
export { type Actor, personOf, USER_ID_EXAMPLE } from '../actor.js';
export type { Invocation } from '../command/dispatcher.js';
export { MESSAGE_MAX, TOO_LONG, WORDLESS } from '../command/plain-words.js';
export { commandLine } from '../command/syntax.js';
export type { AckKind } from '../metrics.js';
export {
  answerEvery,
  limitServer,
  OPS_PATHS,
  OPS_SERVER_LIMITS,
  type OpsRoutes,
  type ServerLimits,
} from '../ops-routes.js';
export type { OpsServer } from '../ops-server.js';
export { OUTSIDE_MESSAGE, type TenantRef } from '../tenancy/index.js';
export {
  type Catalogue,
  type CatalogueCommand,
  type CatalogueParam,
  catalogueOf,
} from './catalogue.js';
export {
  type Completion,
  type CompletionField,
  type CompletionLimits,
  type CompletionRequest,
  completes,
} from './completions.js';
export {
  type GuidePart,
  type GuideText,
  type HomeGuide,
  helpLineOf,
  SAY_IT,
  UNKNOWN_COMMAND,
} from './guide.js';
export type { ChannelSubscription, HomeView, PersonRef, TeamSpendView } from './home.js';
export type { InstallationVault } from './installations.js';
export type { OperatorEndpoints } from './ops.js';
export type {
  AckMetrics,
  ChatCore,
  ChatSettings,
  CommandTyped,
  FormCheck,
  FormDoor,
  FormOpened,
  FormOpening,
  FormSubmitted,
  ReadinessDoor,
  SecretSet,
  TenancyDoor,
  UnfurlDoor,
} from './port.js';
