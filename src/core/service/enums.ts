/**
 * Enumerations of the service contract (service-api.md, service-notes.md), shared by the client's input
 * schemas, the command parser and the sandbox.
 */

/** Main categories: `mainCategory` on creator search, `categories` on viral content. */
export const MAIN_CATEGORIES = [
  'Arts',
  'Automotive',
  'Beauty & Personal Care',
  'Books & Literature',
  'Business',
  'Finance',
  'Career & Jobs',
  'Collectibles & Hobbies',
  'Community',
  'Ecommerce',
  'Crafts & DIY',
  'Culture',
  'Education',
  'Technology',
  'Entertainment',
  'Environment',
  'Family',
  'Parenting',
  'Fashion',
  'Film',
  'Fitness',
  'Health',
  'Food',
  'Gaming',
  'Gardening & Agriculture',
  'History',
  'Home',
  'Humor',
  'Law',
  'Government',
  'Lifestyle',
  'Marketing',
  'Mental Health',
  'Music',
  'News & Media',
  'Outdoors',
  'Nature',
  'Pets',
  'Animals',
  'Philosophy',
  'Spirituality',
  'Photography',
  'Videography',
  'Politics',
  'Relationships',
  'Religion',
  'Science',
  'Self-Improvement',
  'Shopping',
  'Social Media',
  'Social Issues & Activism',
  'Sports',
  'Travel',
  'Vehicles & Transportation',
  'Virtual Reality',
  'Weapons & Defense',
  'Writing',
  'Kids',
] as const;

/** Creator languages (lowercase names). */
export const LANGUAGES = [
  'arabic',
  'bengali',
  'bosnian',
  'bulgarian',
  'cantonese',
  'catalan',
  'croatian',
  'czech',
  'danish',
  'dutch',
  'english',
  'estonian',
  'filipino',
  'finnish',
  'french',
  'german',
  'greek',
  'gujarati',
  'hausa',
  'hebrew',
  'hindi',
  'hungarian',
  'icelandic',
  'indonesian',
  'italian',
  'japanese',
  'javanese',
  'kannada',
  'kazakh',
  'korean',
  'latvian',
  'lithuanian',
  'malay',
  'malayalam',
  'mandarin',
  'marathi',
  'nepali',
  'norwegian',
  'pashto',
  'persian',
  'polish',
  'portuguese',
  'punjabi',
  'romanian',
  'russian',
  'serbian',
  'sinhala',
  'slovak',
  'slovenian',
  'somali',
  'spanish',
  'swahili',
  'swedish',
  'tamil',
  'telugu',
  'thai',
  'turkish',
  'ukrainian',
  'urdu',
  'uzbek',
  'vietnamese',
  'yoruba',
] as const;

/** Viral-content countries (`countries`), by full name; creator filters take any country (countries.ts). */
export const COUNTRIES = [
  'United States',
  'China',
  'Japan',
  'Germany',
  'United Kingdom',
  'India',
  'France',
  'Canada',
  'Italy',
  'South Korea',
  'Australia',
  'Brazil',
  'Spain',
  'Mexico',
  'Indonesia',
  'Netherlands',
  'Saudi Arabia',
  'Turkey',
  'Switzerland',
  'Taiwan',
  'Poland',
  'Sweden',
  'Belgium',
  'Thailand',
  'Argentina',
  'Nigeria',
  'Austria',
  'Iran',
  'Norway',
  'United Arab Emirates',
  'Ireland',
  'Israel',
  'South Africa',
  'Denmark',
  'Singapore',
  'Malaysia',
  'Philippines',
  'Hong Kong',
  'Colombia',
  'Bangladesh',
  'Egypt',
  'Finland',
  'Chile',
  'Vietnam',
  'Czechia',
  'Romania',
  'New Zealand',
  'Portugal',
  'Greece',
  'Iraq',
  'Qatar',
  'Peru',
  'Hungary',
  'Kuwait',
  'Ukraine',
  'Morocco',
  'Slovakia',
  'Puerto Rico',
  'Ecuador',
  'Oman',
  'Kenya',
  'Luxembourg',
  'Cuba',
  'Sri Lanka',
  'Uzbekistan',
  'Bulgaria',
  'Croatia',
  "Côte d'Ivoire",
  'Belarus',
  'Uruguay',
  'Panama',
  'Slovenia',
  'Turkmenistan',
  'Lithuania',
  'Lebanon',
  'Tanzania',
  'Jordan',
  'Bahrain',
  'Serbia',
  'Cameroon',
  'Bolivia',
  'Paraguay',
  'Ghana',
  'Estonia',
  'Uganda',
  'Zambia',
  'Afghanistan',
  'Bosnia and Herzegovina',
  'Mozambique',
  'Armenia',
  'Georgia',
  'Honduras',
  'Albania',
  'Madagascar',
  'Namibia',
  'Senegal',
  'Malta',
  'Chad',
  'Niger',
  'Mali',
  'Kyrgyzstan',
  'Malawi',
  'Rwanda',
  'Burundi',
  'Comoros',
  'Lesotho',
  'Tajikistan',
  'Suriname',
  'Montenegro',
  'Eswatini',
  'Sierra Leone',
  'Gambia',
  'Guyana',
  'Timor-Leste',
  'Mauritania',
  'Burkina Faso',
  'Liberia',
  'Cape Verde',
  'Mauritius',
  'Bhutan',
  'Benin',
  'Central African Republic',
  'Togo',
  'Guinea',
  'Gabon',
  'São Tomé and Príncipe',
  'Equatorial Guinea',
  'Antigua and Barbuda',
  'Belize',
  'Barbados',
  'Saint Kitts and Nevis',
  'Vanuatu',
  'Solomon Islands',
  'Saint Vincent and the Grenadines',
  'Fiji',
  'Samoa',
  'Tonga',
  'Dominica',
  'Russia',
  'Other',
] as const;

/** Viral-content `contentFormats` values. */
export const CONTENT_FORMATS = [
  'talking_head',
  'voiceover',
  'slideshow',
  'skit',
  'tutorial',
  'vlog',
  'challenge',
  'reaction',
  'product_review',
  'asmr',
  'before_after',
  'storytime',
  'grwm',
  'unboxing',
  'compilation',
  'interview',
  'day_in_life',
  'pov',
  'dance',
  'lip_sync',
  'cooking',
  'fitness',
  'diy',
  'meme',
  'music_video',
  'podcast_clip',
  'gaming',
  'other',
] as const;

/** Viral-content `contentTones` values. */
export const CONTENT_TONES = [
  'funny',
  'serious',
  'educational',
  'emotional',
  'shocking',
  'inspiring',
  'controversial',
  'relatable',
  'aesthetic',
  'dramatic',
  'wholesome',
  'sarcastic',
  'informative',
  'provocative',
  'calming',
  'energetic',
  'nostalgic',
  'suspenseful',
  'motivational',
  'romantic',
] as const;

/** Viral-content `visualStyles` values. */
export const VISUAL_STYLES = [
  'minimalist',
  'colorful',
  'dark',
  'bright',
  'pastel',
  'neon',
  'vintage',
  'natural',
  'cinematic',
  'raw',
  'polished',
  'lo_fi',
  'high_contrast',
  'warm',
  'cool',
  'aesthetic',
  'luxurious',
  'gritty',
] as const;

/** Race filter values (profiles may return them in another letter case). */
export const RACES = [
  'White',
  'Black',
  'Indian',
  'East Asian',
  'Southeast Asian',
  'Middle Eastern',
  'Latino Hispanic',
] as const;

/** Hair colour filter values. */
export const HAIR_COLORS = ['Blonde hair', 'Brunette hair', 'Black hair', 'Red hair', 'White hair'] as const;

/** Body complexion filter values. */
export const BODY_COMPLEXIONS = ['Skinny', 'Ordinary', 'Overweight', 'Hulk'] as const;

/** Platforms accepted by creator search (v2). */
export const SEARCH_PLATFORMS = ['tiktok', 'instagram', 'youtube', 'twitter', 'linkedin'] as const;

/** Platforms accepted by the v1 creators operation: the search platforms plus the live-streaming one. */
export const V1_PLATFORMS = [...SEARCH_PLATFORMS, 'twitch'] as const;

/** Account types. */
export const ACCOUNT_TYPES = ['faceless', 'ugc', 'agc', 'clipper', 'brand'] as const;

/** Age groups (ten-year bands). */
export const AGE_GROUPS = [
  '0-9',
  '10-19',
  '20-29',
  '30-39',
  '40-49',
  '50-59',
  '60-69',
  '70-79',
  '80-89',
  '90-99',
] as const;

/** Genders. */
export const GENDERS = ['male', 'female'] as const;

/** Sort fields of creator search. */
export const CREATOR_SORT_FIELDS = [
  'date_created',
  'followers',
  'engagement_rate',
  'avg_views',
  'avg_likes',
  'avg_comments',
] as const;

/** Sort orders. */
export const SORT_ORDERS = ['asc', 'desc'] as const;

/** CRM contact statuses (the service accepts any letter case and stores upper case). */
export const CRM_STATUSES = [
  'TO_OUTREACH',
  'OUTREACHED',
  'NEGOTIATING',
  'WORKING',
  'DONE',
  'CANCELLED',
] as const;

/** Agent message directions accepted as a filter. */
export const MESSAGE_DIRECTIONS = ['all', 'outbound', 'inbound'] as const;

/** Agent message statuses seen. */
export const MESSAGE_STATUSES = ['sent', 'received', 'replied', 'failed'] as const;

/** Agent project statuses seen. */
export const PROJECT_STATUSES = ['active', 'paused', 'disabled'] as const;

/** Song data actions. */
export const SONG_ACTIONS = [
  'countries',
  'weeks',
  'date-ranges',
  'rankings',
  'global',
  'new-entries',
  'search',
  'song-history',
  'compare',
] as const;

/** Sort fields of the videos operation. */
export const VIDEO_SORT_FIELDS = ['views', 'likes', 'shares', 'user_followers', 'date_created'] as const;

/** A CRM status. */
export type CrmStatus = (typeof CRM_STATUSES)[number];
/** A platform accepted by creator search. */
export type SearchPlatform = (typeof SEARCH_PLATFORMS)[number];
/** A platform accepted by v1 creators. */
export type V1Platform = (typeof V1_PLATFORMS)[number];
/** A main category. */
export type MainCategory = (typeof MAIN_CATEGORIES)[number];
/** A song data action. */
export type SongAction = (typeof SONG_ACTIONS)[number];
