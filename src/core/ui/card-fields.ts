/**
 * Titles and label/value fields of cards and rows, shared by every renderer so a creator card reads the
 * same in Slack, Discord and the terminal (and numbers are formatted one way everywhere).
 */
import { CRM_STATUS_LABELS, platformLabel, VIRALITY_LABELS } from './cards.js';
import { compactNumber, formatAmount, formatDate, formatPercent, MISSING } from './format.js';
import type { ContactRowNode, CreatorCardNode, Field, ListRowNode, ViralPostCardNode } from './model.js';

/** A count in compact form ("1.2K") or a dash. */
export function formatCount(value: number | null): string {
  return value === null ? MISSING : compactNumber(value);
}

/** A virality score with its band, "0.86 (Breakout)", or a dash. */
export function formatVirality(card: Pick<ViralPostCardNode, 'viralityScore' | 'virality'>): string {
  if (card.viralityScore === null || card.virality === null) return MISSING;
  return `${Number(card.viralityScore.toFixed(2))} (${VIRALITY_LABELS[card.virality]})`;
}

/** Title of a creator card: "@handle · Nickname", falling back to whatever names the creator. */
export function creatorCardTitle(card: CreatorCardNode): string {
  const handle = card.handle === null ? null : `@${card.handle}`;
  if (handle !== null && card.nickname !== null && card.nickname !== card.handle) {
    return `${handle} · ${card.nickname}`;
  }
  return handle ?? card.nickname ?? card.userId ?? 'Unknown creator';
}

/** Subtitle of a creator card: the platform, when known. */
export function creatorCardPlatform(card: CreatorCardNode): string | null {
  return card.platform === null ? null : platformLabel(card.platform);
}

/** The facts of a creator card in display order. */
export function creatorCardFields(card: CreatorCardNode): Field[] {
  const email = card.email ?? (card.emailKnown ? 'on file' : 'none');
  return [
    { label: 'Followers', value: formatCount(card.followers), inline: true },
    {
      label: 'Engagement',
      value: card.engagementPercent === null ? MISSING : formatPercent(card.engagementPercent),
      inline: true,
    },
    { label: 'Avg views', value: formatCount(card.avgViews), inline: true },
    { label: 'Avg likes', value: formatCount(card.avgLikes), inline: true },
    { label: 'Country', value: card.country ?? MISSING, inline: true },
    { label: 'Language', value: card.language ?? MISSING, inline: true },
    { label: 'Category', value: card.mainCategory ?? MISSING, inline: true },
    { label: 'Email', value: email, inline: true },
    { label: 'Data', value: card.dataAge, inline: true },
    { label: 'Niches', value: card.niches.length === 0 ? MISSING : card.niches.join(', ') },
  ];
}

/** Title of a viral post card: "@creator", or a generic name. */
export function viralPostTitle(card: ViralPostCardNode): string {
  return card.creatorUsername === null ? 'Viral post' : `@${card.creatorUsername}`;
}

/** The facts of a viral post card in display order (caption and hook are shown as body text). */
export function viralPostFields(card: ViralPostCardNode): Field[] {
  return [
    { label: 'Views', value: formatCount(card.views), inline: true },
    { label: 'Likes', value: formatCount(card.likes), inline: true },
    { label: 'Comments', value: formatCount(card.comments), inline: true },
    { label: 'Shares', value: formatCount(card.shares), inline: true },
    { label: 'Virality', value: formatVirality(card), inline: true },
    { label: 'Category', value: card.category ?? MISSING, inline: true },
    { label: 'Country', value: card.country ?? MISSING, inline: true },
    { label: 'Music', value: card.musicTitle ?? MISSING, inline: true },
    { label: 'Posted', value: formatDate(card.createdAt) ?? MISSING, inline: true },
  ];
}

/** Title of a list row. */
export function listRowTitle(row: ListRowNode): string {
  return row.name ?? row.listId ?? 'Unnamed list';
}

/** The facts of a list row. */
export function listRowFields(row: ListRowNode): Field[] {
  const dates =
    row.startDate === null && row.endDate === null
      ? MISSING
      : `${row.startDate ?? '…'} → ${row.endDate ?? '…'}`;
  return [
    {
      label: 'Contacts',
      value: row.contactCount === null ? MISSING : formatAmount(row.contactCount),
      inline: true,
    },
    {
      label: 'To outreach',
      value: row.toOutreachCount === null ? MISSING : formatAmount(row.toOutreachCount),
      inline: true,
    },
    { label: 'Budget', value: row.budget === null ? MISSING : formatAmount(row.budget), inline: true },
    { label: 'Dates', value: dates, inline: true },
  ];
}

/** Title of a contact row: "@handle", or the creator id. */
export function contactRowTitle(row: ContactRowNode): string {
  return row.handle === null ? (row.userId ?? 'Unknown creator') : `@${row.handle}`;
}

/** The facts of a contact row (notes are shown as body text). */
export function contactRowFields(row: ContactRowNode): Field[] {
  return [
    { label: 'Status', value: row.status === null ? MISSING : CRM_STATUS_LABELS[row.status], inline: true },
    { label: 'Email', value: row.email ?? MISSING, inline: true },
    {
      label: 'Proposed',
      value: row.proposedRate === null ? MISSING : formatAmount(row.proposedRate),
      inline: true,
    },
    {
      label: 'Agreed',
      value: row.agreedRate === null ? MISSING : formatAmount(row.agreedRate),
      inline: true,
    },
    { label: 'Deliverables', value: row.deliverables ?? MISSING, inline: true },
    { label: 'Last contact', value: row.lastContactDate ?? MISSING, inline: true },
  ];
}
