/** Word pools the sandbox generators draw from: names, topics per category, products, hooks. */
import type { MainCategory } from '../../core/service/enums.js';

/** Given names. */
export const FIRST_NAMES = [
  'maya', 'liam', 'sofia', 'noah', 'aiko', 'mateo', 'zara', 'omar', 'lena', 'kai', 'priya', 'diego', 'emma',
  'yuki', 'amara', 'leo', 'chloe', 'ravi', 'ines', 'jonas', 'nadia', 'hugo', 'mei', 'tariq', 'elif', 'lucas',
  'ana', 'ben', 'fatima', 'sven', 'isla', 'kofi', 'julia', 'arjun', 'clara', 'felix', 'hana', 'ivan', 'luna',
  'marco', 'nia', 'oscar', 'paula', 'rosa', 'sami', 'tom', 'vera', 'wei', 'yara', 'zoe',
] as const;

/** Family names. */
export const LAST_NAMES = [
  'lopez', 'smith', 'tanaka', 'garcia', 'khan', 'muller', 'rossi', 'silva', 'kim', 'nguyen', 'okafor', 'dubois',
  'novak', 'cohen', 'patel', 'larsen', 'moreau', 'yilmaz', 'santos', 'kowalski', 'haddad', 'chen', 'jensen',
  'costa', 'ivanova', 'mensah', 'fischer', 'ali', 'park', 'reyes',
] as const;

/** Suffix words of handles. */
export const HANDLE_WORDS = [
  'bakes', 'fits', 'travels', 'creates', 'talks', 'plays', 'reviews', 'styles', 'cooks', 'makes', 'lives',
  'vlogs', 'learns', 'builds', 'draws', 'grows', 'films', 'codes', 'reads', 'moves',
] as const;

/** Sub-topics per main category: the free-text categories, hashtags and niches come from here. */
export const CATEGORY_TOPICS: Record<MainCategory, readonly string[]> = {
  Arts: ['painting', 'illustration', 'street art', 'sculpture'],
  Automotive: ['car reviews', 'detailing', 'car mods', 'electric cars'],
  'Beauty & Personal Care': ['skincare', 'makeup', 'haircare', 'nail art'],
  'Books & Literature': ['book reviews', 'booktok', 'poetry', 'fantasy novels'],
  Business: ['entrepreneurship', 'startups', 'side hustles', 'leadership'],
  Finance: ['personal finance', 'investing', 'budgeting', 'crypto'],
  'Career & Jobs': ['job hunting', 'resume tips', 'remote work', 'interview prep'],
  'Collectibles & Hobbies': ['trading cards', 'sneaker collecting', 'lego', 'vinyl records'],
  Community: ['local events', 'volunteering', 'neighborhood', 'meetups'],
  Ecommerce: ['dropshipping', 'amazon finds', 'online store', 'product sourcing'],
  'Crafts & DIY': ['knitting', 'woodworking', 'upcycling', 'candle making'],
  Culture: ['traditions', 'festivals', 'language learning', 'heritage'],
  Education: ['study tips', 'math tutoring', 'science explainers', 'exam prep'],
  Technology: ['gadgets', 'smartphones', 'coding', 'ai tools'],
  Entertainment: ['celebrity news', 'tv shows', 'pop culture', 'reactions'],
  Environment: ['sustainability', 'zero waste', 'climate', 'recycling'],
  Family: ['family vlog', 'siblings', 'family travel', 'home life'],
  Parenting: ['toddlers', 'mom life', 'dad life', 'newborn tips'],
  Fashion: ['streetwear', 'outfit ideas', 'thrift hauls', 'luxury fashion'],
  Film: ['movie reviews', 'filmmaking', 'cinema history', 'short films'],
  Fitness: ['home workouts', 'weightlifting', 'running', 'yoga'],
  Health: ['nutrition', 'wellness', 'sleep', 'healthy habits'],
  Food: ['recipes', 'street food', 'baking', 'vegan recipes'],
  Gaming: ['fps games', 'minecraft', 'speedruns', 'mobile games'],
  'Gardening & Agriculture': ['houseplants', 'vegetable garden', 'farming', 'composting'],
  History: ['ancient history', 'world war history', 'history facts', 'archaeology'],
  Home: ['home decor', 'organization', 'cleaning hacks', 'interior design'],
  Humor: ['sketch comedy', 'memes', 'pranks', 'stand up'],
  Law: ['legal tips', 'true crime', 'law school', 'rights'],
  Government: ['public policy', 'civics', 'elections explained', 'local government'],
  Lifestyle: ['daily routine', 'minimalism', 'productivity', 'self care'],
  Marketing: ['social media marketing', 'branding', 'copywriting', 'seo'],
  'Mental Health': ['anxiety', 'therapy talk', 'mindfulness', 'burnout'],
  Music: ['covers', 'music production', 'guitar', 'singing'],
  'News & Media': ['breaking news', 'commentary', 'journalism', 'media analysis'],
  Outdoors: ['hiking', 'camping', 'climbing', 'fishing'],
  Nature: ['wildlife', 'national parks', 'birdwatching', 'landscapes'],
  Pets: ['dogs', 'cats', 'pet care', 'puppy training'],
  Animals: ['rescue animals', 'farm animals', 'exotic animals', 'marine life'],
  Philosophy: ['stoicism', 'ethics', 'existentialism', 'philosophy explained'],
  Spirituality: ['meditation', 'astrology', 'manifesting', 'tarot'],
  Photography: ['portrait photography', 'street photography', 'photo editing', 'film cameras'],
  Videography: ['cinematography', 'drone footage', 'video editing', 'color grading'],
  Politics: ['political commentary', 'debates', 'policy analysis', 'activism politics'],
  Relationships: ['dating advice', 'couples', 'marriage', 'friendship'],
  Religion: ['faith', 'bible study', 'prayer', 'religious history'],
  Science: ['physics', 'space', 'biology', 'chemistry experiments'],
  'Self-Improvement': ['motivation', 'habits', 'discipline', 'morning routine'],
  Shopping: ['hauls', 'deals', 'product reviews', 'wishlist'],
  'Social Media': ['influencer tips', 'content creation', 'growth hacks', 'trends'],
  'Social Issues & Activism': ['human rights', 'equality', 'awareness', 'charity'],
  Sports: ['football', 'basketball', 'tennis', 'sports highlights'],
  Travel: ['budget travel', 'travel vlog', 'hidden gems', 'solo travel'],
  'Vehicles & Transportation': ['motorcycles', 'trucks', 'aviation', 'trains'],
  'Virtual Reality': ['vr games', 'metaverse', 'vr headsets', 'mixed reality'],
  'Weapons & Defense': ['military history', 'self defense', 'archery', 'defense tech'],
  Writing: ['writing tips', 'screenwriting', 'copy editing', 'storytelling'],
  Kids: ['kids crafts', 'toy reviews', 'learning games', 'nursery rhymes'],
};

/** Products creators promote. */
export const PRODUCTS = [
  'protein powder', 'skincare serum', 'sunscreen', 'wireless earbuds', 'meal kit', 'language app', 'running shoes',
  'vpn', 'coffee maker', 'phone case', 'hair dryer', 'budget app', 'gaming chair', 'mechanical keyboard',
  'dog food', 'yoga mat', 'water bottle', 'lipstick', 'energy drink', 'travel backpack', 'smartwatch', 'notebook',
  'ring light', 'camera lens', 'plant pots', 'supplements', 'sneakers', 'perfume', 'online course', 'tea',
] as const;

/** Generic hashtags added to topic hashtags. */
export const GENERIC_HASHTAGS = ['fyp', 'viral', 'trending', 'foryou', 'explore', 'reels', 'tips', 'daily'] as const;

/** Openers of viral hooks. */
export const HOOKS = [
  'Wait for the end', 'Nobody talks about this', 'I tried this for 30 days', 'Stop scrolling if you',
  'This changed everything', 'POV: you finally', 'The secret nobody tells you about', 'Rating every',
  'Here is why your', 'I can not believe this worked', 'Day 1 of learning', 'Things I wish I knew about',
  'Watch this before you buy', 'The easiest way to', 'You have been doing this wrong',
] as const;

/** Values of the viral-content tags whose allowed values the contract does not list. */
export const VIDEO_SETTINGS = ['indoor', 'outdoor', 'studio', 'kitchen', 'car', 'gym', 'office', 'street', 'bedroom', 'nature'] as const;
/** Target demographics of viral posts. */
export const TARGET_DEMOGRAPHICS = ['gen_z', 'millennials', 'gen_x', 'parents', 'students', 'professionals', 'gamers', 'seniors'] as const;
/** Production qualities of viral posts. */
export const PRODUCTION_QUALITIES = ['low', 'medium', 'high', 'professional'] as const;
/** Call-to-action types of viral posts. */
export const CTA_TYPES = ['none', 'follow', 'like', 'comment', 'share', 'link_in_bio', 'shop_now', 'subscribe'] as const;
/** Primary emotions of viral posts. */
export const PRIMARY_EMOTIONS = ['joy', 'surprise', 'curiosity', 'nostalgia', 'anger', 'fear', 'sadness', 'excitement', 'awe', 'amusement'] as const;
/** Brands that viral posts mention. */
export const BRANDS = ['Nike', 'Glossier', 'Samsung', 'Lego', 'Sephora', 'Red Bull', 'IKEA', 'Adidas', 'Apple', 'Duolingo'] as const;
/** Colour palettes of viral posts. */
export const COLOR_PALETTES = ['warm pastel tones', 'cool blue tones', 'high contrast black and white', 'earthy greens', 'neon pink and purple', 'golden hour orange', 'muted beige'] as const;

/** Words song titles are built from. */
export const SONG_WORDS = [
  'Midnight', 'Golden', 'Echo', 'Fever', 'Paradise', 'Runaway', 'Neon', 'Heartbeat', 'Summer', 'Gravity',
  'Wildfire', 'Ocean', 'Electric', 'Shadow', 'Velvet', 'Satellite', 'Diamond', 'Thunder', 'Mirage', 'Horizon',
  'Lullaby', 'Rebel', 'Sugar', 'Starlight', 'Firefly', 'Cherry', 'Silver', 'Moonlight', 'Crystal', 'Rhythm',
] as const;

/** Artist names of the song pool. */
export const ARTISTS = [
  'Nova Lane', 'The Static Hearts', 'Kairo', 'Luna Vega', 'DJ Marlo', 'Sasha Bloom', 'Rio Blaze', 'Aya Mori',
  'The Night Owls', 'Jaden Cruz', 'Mila Stone', 'Ozzy Raye', 'Bianca Sol', 'K-Wave Nine', 'Theo Park',
  'Amani', 'Los Rayos', 'Fenna Vos', 'Yung Pilot', 'Elle Ashford', 'Dario Bell', 'Soleil', 'Kenji Ito',
  'Priya Rao', 'Malik Jones',
] as const;

/** Country names by ISO 3166 code for the song charts. */
export const SONG_COUNTRIES = [
  { code: 'US', name: 'United States' },
  { code: 'GB', name: 'United Kingdom' },
  { code: 'DE', name: 'Germany' },
  { code: 'FR', name: 'France' },
  { code: 'BR', name: 'Brazil' },
  { code: 'JP', name: 'Japan' },
  { code: 'KR', name: 'South Korea' },
  { code: 'IN', name: 'India' },
  { code: 'MX', name: 'Mexico' },
  { code: 'ES', name: 'Spain' },
  { code: 'CA', name: 'Canada' },
  { code: 'AU', name: 'Australia' },
] as const;

/** The usual language of a creator from a country (the others mostly speak English). */
export const COUNTRY_LANGUAGES: Readonly<Record<string, string>> = {
  China: 'mandarin', Japan: 'japanese', Germany: 'german', France: 'french', India: 'hindi', Italy: 'italian',
  'South Korea': 'korean', Brazil: 'portuguese', Spain: 'spanish', Mexico: 'spanish', Indonesia: 'indonesian',
  Netherlands: 'dutch', 'Saudi Arabia': 'arabic', Turkey: 'turkish', Taiwan: 'mandarin', Poland: 'polish',
  Sweden: 'swedish', Thailand: 'thai', Argentina: 'spanish', Nigeria: 'yoruba', Austria: 'german', Iran: 'persian',
  Norway: 'norwegian', 'United Arab Emirates': 'arabic', Israel: 'hebrew', Denmark: 'danish', Malaysia: 'malay',
  Philippines: 'filipino', 'Hong Kong': 'cantonese', Colombia: 'spanish', Bangladesh: 'bengali', Egypt: 'arabic',
  Finland: 'finnish', Chile: 'spanish', Vietnam: 'vietnamese', Czechia: 'czech', Romania: 'romanian',
  Portugal: 'portuguese', Greece: 'greek', Peru: 'spanish', Hungary: 'hungarian', Ukraine: 'ukrainian',
  Russia: 'russian', Kenya: 'swahili', Pakistan: 'urdu', Serbia: 'serbian', Croatia: 'croatian',
  Bulgaria: 'bulgarian', Slovakia: 'slovak', Slovenia: 'slovenian', Lithuania: 'lithuanian', Estonia: 'estonian',
  'Sri Lanka': 'sinhala', Uzbekistan: 'uzbek', 'Bosnia and Herzegovina': 'bosnian', Afghanistan: 'pashto',
};
