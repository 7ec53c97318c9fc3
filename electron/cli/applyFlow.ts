// The one flow of every apply the command line makes (replace, repair, discard-staging, adopt): print the
// plan and where its backup goes, ask on a terminal (or take --yes), apply, print the result and the
// Undo line. The plan and the apply are steps: on this machine or on a host's agent.

import './startupChunk'; // what every command's start shares, as one chunk of the build
import { planText } from './renderPlan';
import {
  applyAftermathText,
  isInputRefusal,
  nestedDestinationsText,
  nestedNotAcknowledged,
  partialNotAccepted,
  planAsApplied,
  repairRefusedText,
  type ApplyResult,
  type ConfirmationLevel,
  type PlanRefusal,
  type ReplacePlan,
} from '../../shared/plan';
import { planDocument } from '../../shared/planRows';

import { isBackupId } from '../../shared/backupId';
import type { Door, OpenedDestination } from './door';
import { shellCommand } from '../../shared/shellQuote';
import { EXIT_FINDINGS, EXIT_INPUT, EXIT_OK, type CliIo } from './command';
import { ERASE_LINE, formatBytes } from './progressBar';
import { describeApplyStep } from '../../shared/applyStepWords';
import type { ApplyProgress } from '../../shared/plan';
import { makeStyle, type Style } from './style';
import { printable } from './terminalText';
import type { Result } from '../../shared/result';

import { valueOf } from './hostPaths';
import type { ApiError, ApiResult, ResponseOf } from '../../shared/api';
import { planKindOf } from '../../shared/planKinds';
import { countsWords, planCounts, planCountsSentence } from '../../shared/planCounts';
import { keptPathsOf } from '../../shared/repairSelection';
import { recoveryDoneText } from './renderRecoveryPlan';
import { commandWords, installedCommand } from '../service/installedCommand';

/**
 * The Undo line: exactly the command that restores this backup, every argument quoted for a POSIX
 * shell. A backup id not of the form the backup store writes is refused (an agent's answer is not
 * trusted to be one): no line is printed for it.
 */
export function undoText(backupId: string, target: OpenedDestination): string {
  if (!isBackupId(backupId)) return `Undo: not shown: ${JSON.stringify(printable(backupId))} is not a backup id the backup store writes\n`;
  const argv = [...commandWords(), 'backups', 'restore', target.undoDestination, backupId, ...target.undoOptions];
  return `Undo: ${shellCommand(argv)}\n`;
}

function backupResultText(result: ApplyResult, target: OpenedDestination): string {
  const backup = result.backup;
  if (!backup) return '';
  return `Backup ${printable(backup.id)} (${backup.method === 'rename' ? 'moved' : 'copied and verified'}): ${printable(backup.folder)}\n${undoText(backup.id, target)}`;
}

function resultText(result: ApplyResult, plan: ReplacePlan, style: Style, target: OpenedDestination): string {
  // The kinds that keep the state (repair, discard staging) say what they did in their own line.
  if (result.ok && planKindOf(plan.mode).keepsState) return `${recoveryDoneText(result, plan, style)}${backupResultText(result, target)}`;
  if (result.ok && planKindOf(plan.mode).writesOnlyState)
    return `${style.green('Done')}: state written, recording ${result.state?.outputs.length ?? 0} files as they stand; nothing else was changed (${result.durationMs} ms).\n${backupResultText(result, target)}`;
  if (result.ok)
    return `${style.green('Done')}: ${countsWords(planCounts(plan), 'done')} (${result.durationMs} ms).\n${backupResultText(result, target)}`;
  const lines = [
    `${style.red('Not completed')}: ${printable(result.error?.message ?? 'unknown error')} (${printable(result.error?.code ?? 'error')})`,
  ];
  lines.push(applyAftermathText(result));
  if (result.backup) lines.push(backupResultText(result, target).trimEnd());
  if (result.stagingLeft)
    lines.push(
      `A staging folder was left behind: inspect reports it as an interrupted replace; \`${printable(installedCommand())} discard-staging DEST\` removes it (a forced replace also clears it).`,
    );
  return `${lines.join('\n')}\n`;
}

/** What the apply's own hash found of the old outputs the plan left to it: the marks the plan text could not show yet. */
function checkedAtApplyText(plan: ReplacePlan, asApplied: ReplacePlan, style: Style): string {
  const pending = new Set(plan.deletes.filter((entry) => entry.hashAtApply !== undefined).map((entry) => entry.path));
  const found = asApplied.deletes.filter((entry) => pending.has(entry.path) && entry.hashAtApply === undefined);
  if (found.length === 0) return '';
  const changed = found.filter((entry) => entry.changed !== undefined);
  if (changed.length === 0)
    return `Checked as it was applied: ${found.length === 1 ? 'the old output was' : `all ${found.length} old outputs were`} as published.\n`;
  const list = changed.map(
    (entry) => `  ${printable(entry.path)}  ${style.yellow(`! changed on disk since published: lost (${entry.changed})`)}`,
  );
  const count = `${changed.length} recorded output${changed.length === 1 ? ' was' : 's were'}`;
  return `${style.yellow(`Checked as it was applied: ${count} changed on disk since published, and those edits were lost:`)}\n${list.join('\n')}\n`;
}

function refusalExit(refusal: PlanRefusal): number {
  return isInputRefusal(refusal) ? EXIT_INPUT : EXIT_FINDINGS;
}

/**
 * On a terminal, without --yes, the question at the plan's level (docs/confirmations.md): a plan that
 * is backed up asks once, naming its counts ("yes"); one that keeps no backup (and a forced replace)
 * asks for the destination id. The answer goes to the service as the operator gave it (the consent
 * gate checks it again); undefined when the operator declined.
 */
async function answered(
  { plan, confirmText, confirmation }: PlannedApply,
  io: CliIo,
  style: Style,
  target: OpenedDestination,
): Promise<{ confirm?: string; confirmed?: boolean } | undefined> {
  if (!io.ask || !io.isTerminal) return undefined;
  // On a host, every question names it: the path alone reads like one on this machine.
  const where = `${printable(plan.destinationPath)}${target.host !== undefined ? ` on host ${printable(target.host)}` : ''}`;
  const kind = planKindOf(plan.mode);
  const staging = kind.onlyStaging ? ` (${plan.deletes.map((entry) => printable(entry.path)).join(', ')})` : '';
  const lost =
    plan.summary.changedCount > 0 && !kind.keepsState ? `; ${plan.summary.changedCount} changed on disk since published will be lost` : '';
  const kept = kind.keepsState ? keptClause(plan) : '';
  const counts = kind.writesOnlyState
    ? `Write only .distributor.json in ${where}, recording ${plan.newState?.outputs.length ?? 0} files as they stand (${plan.extras?.length ?? 0} extra entries stay)`
    : `${planCountsSentence(plan.mode, planCounts(plan))}${staging} in ${where}${lost}${kept}`;
  if (confirmation === 'typed_id' && confirmText !== undefined) {
    const nested = plan.nestedDestinations.length > 0 ? `, including ${nestedDestinationsText(plan)}` : '';
    const why = kind.deletesWholeTree
      ? `This deletes everything in ${where}${nested}.`
      : 'No backup is kept: what this removes or overwrites is gone for good.';
    const answer = await io.ask(`${style.red(why)} ${counts}. Type the destination id "${printable(confirmText)}" to confirm: `);
    return { confirm: answer.trim() };
  }
  return (await io.ask(`${counts}? Type "yes" to apply: `)).trim().toLowerCase() === 'yes' ? { confirmed: true } : undefined;
}

/** The apply's phase in words on one redrawn stderr line: each phase at once, its count at most every 100 ms. */
function phaseLine(write: (text: string) => void): (event: ApplyProgress) => void {
  let shownPhase: string | undefined;
  let shownAtMs = -Infinity;
  return (event) => {
    const atMs = performance.now();
    const { step } = event;
    if (step.phase === shownPhase && atMs - shownAtMs < 100 && step.done !== step.total) return;
    shownPhase = step.phase;
    shownAtMs = atMs;
    write(`${ERASE_LINE}${describeApplyStep(step)}${step.phase === 'stage' && event.bytes > 0 ? ` · ${formatBytes(event.bytes)}` : ''}`);
  };
}

/** What the operator is shown and asked to confirm: the plan, how it is confirmed, and the id to type at the typed_id level. */
export interface PlannedApply {
  plan: ReplacePlan;
  confirmation: ConfirmationLevel;
  confirmText?: string;
}

type Planned = Result<PlannedApply, PlanRefusal>;

/** ", and 1 drifted output you keep as it is": the question names what the operator chose to leave. */
function keptClause(plan: ReplacePlan): string {
  const kept = keptPathsOf(plan).length;
  return kept === 0 ? '' : `, and ${kept} drifted output${kept === 1 ? ' you keep as it is' : 's you keep as they are'}`;
}

/** Plan and apply through a door (this machine's Session or a host's agent); the flow around them is one (replace, repair, discard-staging). */
export interface ReplaceSteps {
  target: OpenedDestination;
  plan(): Promise<Planned>;
  /** Where the apply's backup goes, or why there is none (a line for the plan's text); asked only when shown. */
  backupText(): Promise<string>;
  /** The apply with the operator's answers; a consent the service's gate still lacks comes back as its error. */
  apply(consent: ApplyConsent, onProgress?: (event: ApplyProgress) => void): Promise<Result<ApplyResult, ApiError>>;
}

/** What the operator answered, passed through as given: the service's consent gate decides. */
export interface ApplyConsent {
  confirm?: string;
  /** The operator said yes to the counts (or gave --yes). */
  confirmed?: boolean;
  includeNested: boolean;
  acceptPartial: boolean;
}

/**
 * Plan and apply through the door (replace, repair, discard-staging): the service plans next to the
 * files, keeps the plan and checks it again on apply (its typed id, the stale-plan check, one apply at
 * a time); the typed id and the acknowledgements go with the apply, as in the app. Where its backup
 * goes is the service's own answer.
 */
export function doorSteps(
  door: Door,
  target: OpenedDestination,
  plan: () => Promise<ApiResult<{ planId: string; plan: ReplacePlan; confirmText?: string; confirmation: ConfirmationLevel }>>,
  what: 'planReplace' | 'planRepair' | 'planDiscardStaging' | 'planAdopt',
  backupsOff?: string,
): ReplaceSteps {
  let planId = '';
  let planned: ReplacePlan | undefined;
  return {
    target,
    async plan() {
      const answer = await plan();
      if (!answer.ok) {
        const refusal = (answer.error.details as { refusal?: PlanRefusal } | undefined)?.refusal;
        if (refusal) return { ok: false, error: refusal };
      }
      const value = valueOf(answer, what);
      planId = value.planId;
      planned = value.plan;
      return {
        ok: true,
        value: {
          plan: value.plan,
          confirmation: value.confirmation,
          ...(value.confirmText !== undefined ? { confirmText: value.confirmText } : {}),
        },
      };
    },
    // Listing the backups reads every kept manifest: only for the plan's text, never for --json.
    backupText: async () =>
      doorBackupText(valueOf(await door.call('listBackups', { destination: target.id }), 'listBackups'), target, backupsOff),
    async apply({ confirm, confirmed, includeNested, acceptPartial }, onProgress) {
      const ending = await door.job(
        'applyPlan',
        {
          planId,
          ...(confirm !== undefined ? { confirm } : {}),
          ...(confirmed ? { confirmed } : {}),
          ...(includeNested ? { includeNested } : {}),
          ...(acceptPartial ? { acceptPartial } : {}),
          // The selection reviewed is the one of the plan printed: the service's gate holds the apply to it.
          ...(planned && keptPathsOf(planned).length > 0 ? { keep: keptPathsOf(planned) } : {}),
          // The command line prints the ApplyResult alone: the outputs just written are not read back.
          reportAfter: false,
        },
        {
          // The service is this version (an agent's handshake says so), so its apply progress names its step.
          onProgress: onProgress
            ? ({ step, done, total, bytes }) => {
                if (step) onProgress({ phase: step.phase, step, done, total, bytes });
              }
            : undefined,
        },
      );
      if (!ending.ok && ending.error.code === 'confirmation_required') return ending;
      return { ok: true, value: valueOf(ending, 'applyPlan') };
    },
  };
}

/** "Backup: … kept in FOLDER/<UTC time>/ [on host H]", from the service's own answer about where its next one goes. */
function doorBackupText(listed: ResponseOf<'listBackups'>, target: OpenedDestination, backupsOff?: string): string {
  const info = listed.target;
  const where = target.host !== undefined ? ` on host ${printable(target.host)}` : '';
  if (!info?.enabled || !listed.settings.enabled) {
    const why =
      backupsOff ?? (target.host !== undefined ? 'its workspace file says "backups": "off"' : 'the workspace file says "backups": "off"');
    return `Backups are off${where} (${why}): what this deletes is gone for good.`;
  }
  return `Backup: what this removes is kept in ${printable(info.folder)}/<UTC time>/${where} (the last ${listed.settings.keep} are kept).`;
}

/** Prints the plan, asks (or takes --yes), applies, prints the result: exit 0 done (or not applied), 1 refused or failed, 2 input. */
export async function replaceFlow(
  steps: ReplaceSteps,
  options: Record<string, string | boolean | undefined>,
  io: CliIo,
  command = 'replace',
): Promise<number> {
  const style = makeStyle(io.isTerminal, io.env);
  const json = options.json === true;
  const planned = await steps.plan();
  if (!planned.ok) {
    const refusal = planned.error;
    if (json) io.stdout(`${JSON.stringify({ refusal }, null, 2)}\n`);
    else io.stderr(`distributor-inspector ${command}: refused: ${printable(refusal.message)} (${refusal.code})\n`);
    return refusalExit(refusal);
  }
  const { plan } = planned.value;
  if (!json) io.stdout(planText(plan, style));
  if (!json && plan.action !== 'nothing') io.stdout(`\n${await steps.backupText()}\n`);
  if (plan.action === 'nothing') {
    if (json) io.stdout(`${JSON.stringify(planDocument(plan), null, 2)}\n`);
    // A repair that can rewrite nothing of what drifted is a finding, not a success.
    return planKindOf(plan.mode).mayBePartial && (plan.repair?.refused.length ?? 0) > 0 ? EXIT_FINDINGS : EXIT_OK;
  }
  const includeNested = options['include-nested'] === true;
  const acceptPartial = options['accept-partial'] === true;
  // The acknowledgements are options, not questions: a plan that still lacks one gets no question
  // (no answer could apply it) and goes to the service as it is, whose gate names what is missing.
  const unaskable = nestedNotAcknowledged(plan, includeNested) || partialNotAccepted(plan, acceptPartial);
  const confirmText = planned.value.confirmText;
  const asked =
    options.yes === true
      ? { confirmed: true, ...(confirmText !== undefined ? { confirm: confirmText } : {}) }
      : json || !io.isTerminal
        ? undefined
        : unaskable
          ? {}
          : await answered(planned.value, io, style, steps.target);
  const applied =
    asked === undefined
      ? undefined
      : await steps.apply({ ...asked, includeNested, acceptPartial }, io.isTerminal && !json ? phaseLine(io.stderr) : undefined);
  if (applied && !applied.ok) {
    if (io.isTerminal && !json) io.stderr(ERASE_LINE);
    const refusal = consentRefusalOf(applied.error, plan);
    if (refusal === undefined) return notApplied(plan, json, io, style);
    if (json) io.stdout(`${JSON.stringify({ ...planDocument(plan), refusal }, null, 2)}\n`);
    else io.stderr(`distributor-inspector ${command}: refused: ${refusal.message} (${refusal.code})\n`);
    return EXIT_FINDINGS;
  }
  if (!applied) return notApplied(plan, json, io, style);
  const result = applied.value;
  // A plan applied at once gets the marks of its large old outputs from the apply (hashAtApply).
  const asApplied = planAsApplied(plan, result);
  if (io.isTerminal && !json) io.stderr(ERASE_LINE);
  if (json) io.stdout(`${JSON.stringify({ ...planDocument(asApplied), result }, null, 2)}\n`);
  else io.stdout(`\n${checkedAtApplyText(plan, asApplied, style)}${resultText(result, asApplied, style, steps.target)}`);
  // The apply stands either way; a missing record of it is worth a line of its own.
  if (result.historyError) io.stderr(`distributor-inspector ${command}: warning: ${printable(result.historyError.message)}\n`);
  if (result.backup?.warning) io.stderr(`distributor-inspector ${command}: warning: ${printable(result.backup.warning)}\n`);
  return result.ok ? EXIT_OK : EXIT_FINDINGS;
}

function notApplied(plan: ReplacePlan, json: boolean, io: CliIo, style: Style): number {
  if (json) io.stdout(`${JSON.stringify(planDocument(plan), null, 2)}\n`);
  else io.stdout(`\n${style.yellow('Not applied')}: nothing was changed. Run again with --yes to apply this plan.\n`);
  return EXIT_OK;
}

/**
 * The service's consent refusal in the command line's words (its options named); undefined for a
 * typed id that did not match, which leaves the plan not applied, as a "no" does.
 */
function consentRefusalOf(error: ApiError, plan: ReplacePlan): { code: string; message: string } | undefined {
  const details = (error.details ?? {}) as { nestedDestinations?: unknown; refused?: unknown; expected?: unknown };
  if (details.nestedDestinations !== undefined)
    return {
      code: 'nested_not_acknowledged',
      message: `this forced replace would also delete ${nestedDestinationsText(plan)}; run again with --include-nested to apply`,
    };
  if (details.refused !== undefined)
    return {
      code: 'partial_not_accepted',
      message: `${repairRefusedText(plan)}; run again with --accept-partial to repair the other ${plan.writes.length}`,
    };
  if (details.expected !== undefined) return undefined;
  // Reached only if the service asks a level this command did not (its backup settings changed between plan and apply).
  if ((details as { confirmation?: unknown }).confirmation === 'explicit')
    return { code: error.code, message: 'the service asks for a confirmation: run again (or with --yes) to apply' };
  return { code: error.code, message: printable(error.message) };
}
