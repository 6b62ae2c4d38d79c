/** The local emulator of the service: seeded data, credits, rate limits, error shapes and faults. */

export type {
  AgentMessage,
  AgentProject,
  ChartEntry,
  CreatorProfile,
  VideoRecord,
  ViralPost,
} from './data/records.js';
export type { InboundReplyOptions } from './data/replies.js';
export {
  createSandbox,
  DEFAULT_SEED,
  DEMO_CREDITS,
  DEMO_CREDITS_2,
  DEMO_KEY,
  DEMO_KEY_2,
  DEMO_TEAM_ID,
  DEMO_TEAM_ID_2,
} from './sandbox.js';
export type {
  Sandbox,
  SandboxAgentMessage,
  SandboxFault,
  SandboxKey,
  SandboxOptions,
  SandboxReplyOptions,
  SandboxRequestLog,
} from './types.js';
