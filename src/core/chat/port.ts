/**
 * The chat port: everything a platform adapter (Slack, Discord, the terminal) is given of Scout, as one object,
 * `ChatCore`. Adapters dispatch what people type and press through it, read the command catalogue, and reach the
 * few parts of the app they need (forms, tenancy, stored installations, readiness, metrics) through the narrow
 * doors declared here, never the store, the service client or the registry themselves.
 */
import type { Actor, Platform } from '../actor.js';
import type { Clock } from '../clock.js';
import type { Dispatcher, Invocation, SecretPrompt } from '../command/dispatcher.js';
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

/** A command's form to open: the id its submission comes back under (a Discord modal's custom_id), and the form. */
export interface FormToOpen {
  readonly id: string;
  readonly spec: FormSpec;
}

/** A submitted form, as the adapter read it off the platform. */
export interface FormSubmitted {
  /**
   * Which form: the form id it was opened under (`FormToOpen.id`, a form button's id), or the command and the
   * fixed options the form carried itself (Slack's modal metadata).
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

/** A submitted form checked. */
export type FormCheck =
  /** The form opens no more (expired, another person's, an unknown command): `reply` says so. */
  | { readonly status: 'gone'; readonly reply: Reply }
  /**
   * Something is wrong: a problem per input id (`FORM_MORE` for the "more" input), and, when the submission asked
   * to `reopen`, the reply that says them with its "Fix the form" button (null otherwise).
   */
  | {
      readonly status: 'wrong';
      readonly errors: Readonly<Record<string, string>>;
      readonly reply: Reply | null;
    }
  /** Every value reads: `run` runs the command with them (after an adapter's acknowledgement, where it must ack). */
  | { readonly status: 'ok'; run(invocation: Invocation): Promise<Reply> };

/**
 * What a command line that needs a secret opens for a person: its private form, or the refusal they are due. The
 * form's `id` (a Discord modal's custom_id, in Slack's modal metadata) is what its submission comes back under: a
 * token stored for that person only, used once, holding the command, the options given and the secret fields'
 * names, never a secret.
 */
export type SecretForm =
  | { readonly status: 'form'; readonly id: string; readonly prompt: SecretPrompt }
  | { readonly status: 'refused'; readonly reply: Reply };

/** A submitted secrets form, as the adapter read it off the platform. */
export interface SecretsSubmitted {
  /** The id the form was opened under (`SecretForm.id`). */
  readonly id: string;
  /** Who submitted it. */
  readonly actor: PersonRef;
  /** The typed values by secret option name. */
  readonly values: Readonly<Record<string, string>>;
}

/**
 * Forms: which one a line, a command's typed options or a form button opens, a submission checked and run, and
 * the private form of a command's secrets. What a command's form shows is derived from its declaration, in core.
 */
export interface FormDoor {
  /** Whether `id` (a button's, a modal's) names a form: a command's own, or a stored request. */
  isForm(id: string): boolean;
  /** Whether `id` (a modal's) names a secrets form (`SecretForm.id`), read from the id alone. */
  isSecretForm(id: string): boolean;
  /**
   * The form a form id opens for `actor`: a command's own form, or a stored request still valid for them; null when
   * it opens none (unknown, expired, another person's): the press is then answered like any other.
   */
  open(id: string, actor: PersonRef): Promise<FormSpec | null>;
  /**
   * The form a command line opens where forms are shown: the command named bare (`/scout creators`), when it needs
   * something or filters by ranges; null for any other line (it is run). Reads nothing: fit for an acknowledgement.
   */
  ofLine(line: string): FormSpec | null;
  /**
   * Whether a command line opens a form where forms are shown: its command's own (`ofLine`), or the private form
   * of the secrets it lacks. Reads nothing: an adapter answers no such line in its acknowledgement.
   */
  opens(line: string): boolean;
  /**
   * The form of a command given typed `options` and free text `more` in the text syntax, filled in with them: when
   * `asked`, or when nothing is in `more` and the command lacks what it needs; null when it runs as it is (or has
   * no form).
   */
  ofCommand(request: {
    family: string;
    command: string;
    options: Readonly<Record<string, string>>;
    more: string;
    asked: boolean;
  }): FormToOpen | null;
  /** Checks a submitted form as the typed line would be checked; when it is right, `run` runs it. */
  submit(submission: FormSubmitted): Promise<FormCheck>;
  /**
   * The private form a command line opens for the secrets it lacks (an API key), or the refusal of someone who may
   * not run the command (nobody types a key into a form that would refuse it); null when it needs no secret.
   * `person` is who the form opens for; `actor`, the person as the adapter knows them, is asked only of a command
   * for admins.
   */
  secrets(line: string, person: PersonRef, actor: () => Promise<Actor>): Promise<SecretForm | null>;
  /**
   * Checks a submitted secrets form: `gone` when its id opens nothing for `actor` (unknown, expired, another
   * person's, or used: a replayed submission), `wrong` with a problem per blank secret (keyed by its option's name,
   * and the reply that says them), or `ok` with `run`, the command with the options given and the secrets. A form
   * found right is used up at once.
   */
  submitSecrets(submission: SecretsSubmitted): Promise<FormCheck>;
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
export interface ChatCore extends Pick<Dispatcher, 'text' | 'options' | 'action' | 'atOnce' | 'working'> {
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
