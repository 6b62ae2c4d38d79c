/** Record types of the sandbox data, shaped as the service sends them (snake_case or camelCase per resource). */

/** A creator profile, exactly as v1 creators and creators get answer it. */
export interface CreatorProfile {
  user_id: string;
  handle: string;
  nickname: string;
  bio: string;
  source: string;
  email: string | null;
  categories: string[];
  followers: number;
  following: number;
  total_videos: number;
  total_likes: number;
  avg_views: number;
  avg_likes: number;
  avg_comments: number;
  engagement_rate: number;
  main_website: string | null;
  websites: string[];
  description: string | null;
  promoted_products: string[];
  best_promotion_niches: string[];
  main_category: string;
  country: string;
  date_created_timestamp: number;
  avatar_url: string;
  age: string;
  gender: string;
  account_type: string;
  race: string;
  hair_color: string;
  body_complexion: string;
  language: string;
  hashtags: string[];
  uploads_per_week: number;
  uploads_per_month: number;
  avg_video_duration_seconds: number | null;
  promotions_count: number;
  affiliate_posts_count: number;
  sponsorship_posts_count: number;
}

/** A viral post: the documented camelCase item plus the analyzed tags the filters run on. */
export interface ViralPost {
  id: string;
  videoUrl: string;
  thumbnailUrl: string;
  caption: string;
  views: number;
  likes: number;
  comments: number;
  shares: number;
  viralityScore: number;
  followers: number;
  category: string;
  country: string;
  musicTitle: string;
  creatorUsername: string;
  hook: string;
  createdAt: string;
  contentFormat: string;
  contentTone: string;
  visualStyle: string;
  videoSetting: string;
  targetDemographic: string;
  productionQuality: string;
  ctaType: string;
  primaryEmotion: string;
  videoTopic: string;
  contentCategory: string;
  productCategory: string | null;
  brandMentioned: string | null;
  colorPalette: string;
  hasFace: boolean;
  hasProduct: boolean;
  isBranded: boolean;
  isPromotional: boolean;
  hasTextOverlay: boolean;
  isTrendingFormat: boolean;
  isAiGenerated: boolean;
}

/** A video of `GET /api/v1/videos`. */
export interface VideoRecord {
  iv_id: number;
  user_id: string;
  user_handle: string;
  video_id: string;
  source: string;
  views: number;
  likes: number;
  comments: number;
  shares: number;
  user_followers: number;
  description: string;
  hashtags: string[];
  subtitles: string[] | null;
  date_created_timestamp: number;
}

/** A song of the chart pool. */
export interface Song {
  id: string;
  title: string;
  artist: string;
}

/** One chart entry, the documented rankings item. */
export interface ChartEntry {
  id: string;
  title: string;
  artist: string;
  rank: number;
  previous_rank: number | null;
  weeks_on_chart: number;
  peak_rank: number;
}

/** A CRM list as stored; counters are computed when it is sent. */
export interface CrmListRecord {
  id: string;
  name: string;
  website_id: string;
  description: string;
  budget: number;
  start_date: string | null;
  end_date: string | null;
  team_id: string;
  active: boolean;
  date_created: string;
  date_updated: string;
}

/** A CRM contact as stored; the `influencer` summary is added when it is sent. */
export interface CrmContactRecord {
  id: string;
  list_id: string;
  user_id: string;
  status: string;
  contact_email: string;
  handle: string;
  instagram_handle: string | null;
  tiktok_handle: string | null;
  first_contact_date: string | null;
  last_contact_date: string | null;
  response_date: string | null;
  proposed_rate: number | null;
  agreed_rate: number | null;
  content_deliverables: string;
  notes: string;
  active: boolean;
  date_created: string;
  date_updated: string;
}

/** An agent project. */
export interface AgentProject {
  id: string;
  name: string;
  website: string;
  website_id: string;
  campaign_id: string | null;
  status: string;
  deal_config: Record<string, unknown>;
  target_keywords: string[];
  target_categories: string[];
  target_countries: string[];
  subject_override: string | null;
  prompt_override: string | null;
  message_body_override: string | null;
  total_emails_sent: number;
  total_responses: number;
  total_credits_used: number;
  date_created: string;
  date_updated: string;
  last_run_at: string | null;
}

/** An agent message; the mailbox account travels under its live name `gmail_account_id`. */
export interface AgentMessage {
  id: string;
  project_id: string;
  conversation_id: string;
  gmail_account_id: string;
  sender_email: string;
  direction: 'outbound' | 'inbound';
  creator_id: string;
  creator_name: string;
  creator_email: string;
  creator_platform: string;
  subject: string;
  body: string;
  body_preview: string;
  status: string;
  sent_at: string | null;
  replied_at: string | null;
  failed_at: string | null;
  date_created: string;
  date_updated: string;
  thread_id: string;
  message_id: string;
  parent_message_id: string | null;
  is_follow_up: boolean;
  follow_up_number: number;
  metadata: Record<string, unknown>;
}
