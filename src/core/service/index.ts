/** Public surface of the service client. */

export {
  type AgentApi,
  type AgentContactedCreatorsInput,
  type AgentMessage,
  type AgentMessagesInput,
  type AgentProject,
  agentContactedCreatorsInput,
  agentMessagesInput,
  type ContactedCreator,
} from './agent.js';
export {
  createRefusingApi,
  createServiceClient,
  type ServiceApi,
  type ServiceClient,
  type ServiceClientOptions,
} from './client.js';
export {
  type CreatorGetInput,
  type CreatorGetResult,
  type CreatorListInput,
  type CreatorListPage,
  type CreatorProfile,
  type CreatorSearchInput,
  type CreatorsApi,
  creatorGetInput,
  creatorListInput,
  creatorSearchInput,
} from './creators.js';
export {
  type CrmAddResult,
  type CrmApi,
  type CrmCheckResult,
  type CrmContact,
  type CrmList,
  type CrmLists,
  type CrmMembership,
  type CrmRemoveResult,
  crmAddCreatorsInput,
  crmCheckCreatorsInput,
  crmCreateListInput,
  crmGetListInput,
  crmListCreatorsInput,
  crmRemoveCreatorInput,
  crmUpdateContactInput,
  crmUpdateListInput,
} from './crm.js';
export {
  type InputIssue,
  SERVICE_ERROR_CODES,
  ServiceError,
  type ServiceErrorCode,
  ServiceInputError,
} from './errors.js';
export { describeAllowed, errorMap as inputErrorMap, parseInput } from './input-kit.js';
export {
  type ImageRemixInput,
  type ImageRemixResult,
  imageRemixInput,
  type MediaApi,
  type ProcessedImage,
  type VideoRemixInput,
  type VideoRemixResult,
  videoRemixInput,
} from './media.js';
export { OPERATION_TRAITS, OPERATIONS, type OperationName } from './operations.js';
export { ANONYMOUS_PERSON } from './person-queue.js';
export { costOf, estimateCost, type FreeOperation, PRICING, type Price } from './pricing.js';
export {
  PROFILE_BATCH_MAX_IDS,
  PROFILE_BATCH_WINDOW_MS,
  type ProfileBatchSettings,
} from './profile-batch.js';
export { QUEUE_NOTICE_DELAY_MS, QUEUE_REPORT_MS } from './queue-notices.js';
export {
  createRateLimiterRegistry,
  DEFAULT_RATE_LIMIT,
  type KeyRateLimiter,
  type RateLimiterRegistry,
  type RateLimitSettings,
  type ScheduleOptions,
} from './rate-limiter.js';
export { DEFAULT_RETRY, type RetrySettings } from './retry.js';
export {
  type SongItem,
  type SongsApi,
  type SongsQueryInput,
  type SongsResult,
  songsQueryInput,
  songsQueryVariants,
} from './songs.js';
export type {
  CallMeta,
  CallOptions,
  Logger,
  Meter,
  MeterEntry,
  MeteredCall,
  Page,
  Priority,
  QueuePlace,
  RequestShare,
  ServiceResult,
} from './types.js';
export { type Video, type VideoSearchInput, type VideosApi, videoSearchInput } from './videos.js';
export {
  normalizeViralPost,
  type ViralApi,
  type ViralPost,
  type ViralSearchInput,
  viralSearchInput,
} from './viral.js';
