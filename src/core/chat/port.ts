/**
 * The chat port: everything a platform adapter (Slack, Discord, the terminal) is given of Scout, as one object,
 * `ChatCore`. Adapters dispatch what people type and press through it, read the command catalogue, and reach the
 * few parts of the app they need (forms, tenancy, stored installations, readiness, metrics) through the narrow
 * doors declared here, never the store, the service client or the registry themselves.
 */
import type { Actor, Platform } from '../actor.js';
import type { Clock } from '../clock.js';
import type { Dispatcher, Invocation } from '../command/dispatcher.js';
import type { AckKind } from '../metrics.js';
import type { ReadinessCheck } from '../readiness.js';
import type { TenantRef } from '../tenancy/index.js';
import type { FormLayout, FormSpec, Reply } from '../ui/index.js';
import type { Catalogue } from './catalogue.js';
import type { Completion, CompletionLimits, CompletionRequest } from './completions.js';
import type { HomeView, PersonRef } from './home.js';
import type { InstallationVault } from './installations.js';
import type { OperatorEndpoints } from './ops.js';

/** Whether a tenant is served, and the few changes adapters make to the directory. */
export interface TenancyDoor {
  /** `single`: one team, the tenants the adapters name; `multi`: any installed tenant with the key it connected. */
  readonly mode: 'single' | 'multi';
  /** Single-team mode: serve this tenant (the workspace of Slack's bot token, the listed Discord servers). */
  serve(tenant: TenantRef): void;
  /** Whether the tenant belongs to this deployment at all (it may still lack a key in many-team mode). */
  isServed(tenant: TenantRef): boolean;
  /**
   * Whether the tenant has a service account to work with: always in single-team mode (for a served tenant), in
   * many-team mode once it connected a key (one that can still be read).
   */
  hasAccount(tenant: TenantRef): Promise<boolean>;
  /** The tenant left (uninstalled, removed the bot): its key and admins are forgotten, its jobs stop. */
  leave(tenant: TenantRef): Promise<void>;
  /** Whether the person is a Scout admin named in this tenant. */
  isScoutAdmin(tenant: TenantRef, userId: string): Promise<boolean>;
}

/** A command's options as a platform typed them (Discord's), with its free text `more` in the text syntax. */
export interface CommandTyped {
  readonly family: string;
  readonly command: string;
  readonly options: Readonly<Record<string, string>>;
  readonly more: string;
  /** The person asked for the form (Discord's `form` option). */
  readonly asked: boolean;
}

/**
 * What opens a form: a form id (a form button's, "Fix the form"), a typed command line, or a command's typed
 * options. A line or options come with `actor`, the person as the adapter knows them, asked only of a command for
 * admins.
 */
export type FormOpening =
  | { readonly id: string }
  | { readonly line: string; actor(): Promise<Actor> }
  | { readonly command: CommandTyped; actor(): Promise<Actor> };

/**
 * A form to show, under the id its submission comes back under (a Discord modal's custom_id, in a Slack modal's
 * metadata), or the refusal, naming the role, of someone who may not run the command of a private form.
 */
export type FormOpened =
  | { readonly status: 'form'; readonly id: string; readonly spec: FormSpec }
  | { readonly status: 'refused'; readonly reply: Reply };

/** A submitted form, as the adapter read it off the platform. */
export interface FormSubmitted {
  /**
   * Which form: the id it was opened under (`FormOpened.id`), or the command and the fixed options a command's
   * form carried itself (Slack's modal metadata).
   */
  readonly form:
    | string
    | {
        readonly family: string;
        readonly command: string;
        readonly fixed: Readonly<Record<string, string>>;
      };
  /** Who submitted it. */
  readonly actor: PersonRef;
  /** The inputs' values by input id: an option's name, or FORM_MORE. */
  readonly values: Readonly<Record<string, string>>;
  /** How the adapter laid the form out (formLayout): what it showed is read, and problems are keyed by its inputs. */
  layout(spec: FormSpec): Pick<FormLayout, 'shown' | 'more'>;
  /**
   * The platform cannot keep a form open with its problems shown on its inputs (Discord): the check answers with a
   * reply that says them, and a "Fix the form" button that opens the form again as it was filled in.
   */
  readonly reopen?: boolean;
}

/**
 * A submitted form checked; `privately`: the form was private (isPrivateForm, read from its id), and every answer
 * to it goes to its author alone.
 */
export type FormCheck = {
  readonly privately: boolean;
} /** The form opens no more (expired, used, another person's, an unknown command): `reply` says so. */ & (
  | { readonly status: 'gone'; readonly reply: Reply }
  /**
   * Something is wrong: a problem per input id (`FORM_MORE` for the "more" input), and the reply that says them
   * (for a command's form, only when the submission asked to `reopen`, with its "Fix the form" button; else null).
   */
  | {
      readonly status: 'wrong';
      readonly errors: Readonly<Record<string, string>>;
      readonly reply: Reply | null;
    }
  /** Every value reads: `run` runs the command with them (after an adapter's acknowledgement, where it must ack). */
  | { readonly status: 'ok'; run(invocation: Invocation): Promise<Reply> }
);

/**
 * Forms: what a form id, a line or a command's typed options opens, and a submission checked and run. What a form
 * shows is derived from its command's declaration, in core; adapters only lay it out.
 */
export interface FormDoor {
  /**
   * The form `opening` opens for `person` where forms are shown; null when it opens none (the line runs, the press
   * is answered as any other). A line or typed options open the private form of the secrets they lack (an API key;
   * refused to someone who may not run the command), else their command's own form: named bare, asked for, or short
   * of what it needs. An id opens a command's own form, or a stored request still valid for `person`.
   */
  open(opening: FormOpening, person: PersonRef): Promise<FormOpened | null>;
  /**
   * Checks a submitted form as the typed line would be checked; when it is right, `run` runs it. A private form is
   * used up when found right: a replayed submission finds it gone. Null when `form` names no form at all (a
   * modal of an element, whose submission is a press).
   */
  submit(submission: FormSubmitted): Promise<FormCheck | null>;
}

/** Link unfurls: which links name a creator profile, and the answer to one. */
export interface UnfurlDoor {
  /** The domains whose profile links are read (for a platform's unfurl registration). */
  readonly domains: readonly string[];
  /** Whether `url` names a creator profile. */
  names(url: string): boolean;
  /** Whether links are unfurled for the tenant: it is served and has a service account. */
  unfurls(tenant: TenantRef): Promise<boolean>;
  /** The answer to a profile link for the invocation's person: the cached card (free) or a Look up offer. */
  answer(invocation: Invocation, url: string): Promise<Reply>;
}

/** The acknowledgement timings adapters report (`scout_ack_seconds`). */
export interface AckMetrics {
  ack(platform: Exclude<Platform, 'terminal'>, kind: AckKind, seconds: number): void;
}

/** The readiness checks an adapter adds for its platform (`GET /readyz`). */
export interface ReadinessDoor {
  /** Adds (or replaces) the check called `name`; returns the function that removes it. */
  add(name: string, check: ReadinessCheck): () => void;
}

/** Values the logger masks: an adapter adds the tokens it learns (Slack installations' bot tokens). */
export interface SecretSet {
  add(value: string): void;
}

/** The settings adapters read. */
export interface ChatSettings {
  /** How long after a request's arrival its working message is due; null: never shown. */
  readonly workingNoticeMs: number | null;
  /** How long an element (a button, a stored form) stays valid. */
  readonly elementTtlMs: number;
}

/** The port adapters are given: the dispatcher's entries they call, and the doors declared here. */
export interface ChatCore extends Pick<Dispatcher, 'text' | 'options' | 'action'> {
  /**
   * The answer of a line that needs nothing but the line (Dispatcher.atOnce); also null, where forms are shown
   * (`forms`), for a line that opens a form (see FormDoor.open): such a line is not answered in an acknowledgement.
   */
  atOnce(text: string, options?: { forms?: boolean }): Reply | null;
  /** The working message of a line (Dispatcher.working); null, where forms are shown, for a line that opens a form. */
  working(text: string, options?: { forms?: boolean }): Reply | null;
  /** The commands and their parameters, read-only. */
  readonly catalogue: Catalogue;
  readonly forms: FormDoor;
  /**
   * Completions of what a person is typing into a parameter, best first, within `limits`; the CRM list names among
   * them are read from the service with the tenant's own account, and given up when `signal` aborts.
   */
  complete(request: CompletionRequest, limits: CompletionLimits, signal: AbortSignal): Promise<Completion[]>;
  /** The person's home view (Slack's App Home), with their tenant's own balance. */
  home(person: PersonRef): Promise<HomeView>;
  readonly unfurls: UnfurlDoor;
  readonly tenancy: TenancyDoor;
  readonly metrics: AckMetrics;
  readonly readiness: ReadinessDoor;
  readonly secrets: SecretSet;
  readonly settings: ChatSettings;
  readonly clock: Clock;
  /** The sealed Slack installations of many-team mode; null without SCOUT_ENCRYPTION_KEY (single-team mode). */
  readonly installations: InstallationVault | null;
  /** The operator endpoints, for the servers an adapter listens with. */
  readonly operator: OperatorEndpoints;
}
