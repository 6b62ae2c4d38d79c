/** The sandbox's data, generated lazily once and then shared by every operation. */
import { generateCreators } from './creators.js';
import type { CreatorProfile, VideoRecord, ViralPost } from './records.js';
import { generateSongCharts, type SongCharts } from './songs.js';
import { generateTeam, type TeamState } from './teams.js';
import { generateVideos } from './videos.js';
import { generateViralPosts } from './viral.js';

/** Lazily generated, seeded data of one sandbox. */
export interface World {
  readonly seed: number;
  /** The clock reading at creation; seeded dates are relative to it. */
  readonly createdAt: number;
  /** Every creator, in generation order. */
  creators(): readonly CreatorProfile[];
  /** One creator by id. */
  creator(id: string): CreatorProfile | undefined;
  /** Viral posts, newest first. */
  viralPosts(): readonly ViralPost[];
  /** Song charts. */
  songs(): SongCharts;
  /** Videos of the videos operation. */
  videos(): readonly VideoRecord[];
  /** A team's state, generated on first use. */
  team(teamId: string, ownerName?: string): TeamState;
  /** Teams generated so far. */
  teams(): readonly TeamState[];
}

/** Creates the lazy data container of a sandbox. */
export function createWorld(seed: number, createdAt: number): World {
  let creators: CreatorProfile[] | undefined;
  let byId: Map<string, CreatorProfile> | undefined;
  let viral: ViralPost[] | undefined;
  let songs: SongCharts | undefined;
  let videos: VideoRecord[] | undefined;
  const teams = new Map<string, TeamState>();

  const allCreators = (): CreatorProfile[] => {
    creators ??= generateCreators(seed, createdAt);
    return creators;
  };
  const index = (): Map<string, CreatorProfile> => {
    byId ??= new Map(allCreators().map((c) => [c.user_id, c]));
    return byId;
  };
  const charts = (): SongCharts => {
    songs ??= generateSongCharts(seed, createdAt);
    return songs;
  };

  return {
    seed,
    createdAt,
    creators: allCreators,
    creator: (id) => index().get(id),
    viralPosts: () => {
      viral ??= generateViralPosts(seed, createdAt, allCreators(), charts().songs);
      return viral;
    },
    songs: charts,
    videos: () => {
      videos ??= generateVideos(seed, createdAt, allCreators());
      return videos;
    },
    team: (teamId, ownerName) => {
      let team = teams.get(teamId);
      if (!team) {
        team = generateTeam(seed, teamId, ownerName ?? 'The Scout team', createdAt, allCreators(), index());
        teams.set(teamId, team);
      }
      return team;
    },
    teams: () => [...teams.values()],
  };
}
